// OTLP ExportLogsServiceRequest (JSON, or protobuf decoded to plain objects) → GenAI events of spans.
// Only log records that are GenAI events (event name gen_ai.*) are kept; other log records are
// accepted and ignored, as a collector's traces-only pipeline would. A GenAI event without a valid
// span context cannot be attached to anything and is reported in partialSuccess.
import { decodeExportLogsRequestObject } from "../../../proto/otlp.ts";
import { AppError } from "../../errors.ts";
import { anyValue, hexId, keyValues, nanosToIso, type TOtelEvent } from "./otel-span.ts";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const field = (o: Obj, camel: string, snake: string) => (o[camel] !== undefined ? o[camel] : o[snake]);

export interface TSpanEvent {
  location: string;
  traceId: string;
  spanId: string;
  event: TOtelEvent;
}

function invalid(path: string, message: string): AppError {
  return new AppError("validation_failed", `Not an OTLP ExportLogsServiceRequest: ${path} ${message}`, { issues: [{ path, message }] });
}

function listOf(parent: Obj, camel: string, snake: string, path: string): Obj[] {
  const value = parent[camel] ?? parent[snake];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${path}${camel}`, "must be a list");
  value.forEach((entry, i) => {
    if (!isObject(entry)) throw invalid(`${path}${camel}[${i}]`, "must be an object");
  });
  return value as Obj[];
}

export function decodeLogsJson(body: Buffer): { events: TSpanEvent[]; problems: string[] } {
  let request: unknown;
  try {
    request = body.length === 0 ? {} : JSON.parse(body.toString("utf8"));
  } catch (error) {
    throw new AppError("invalid_json", `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(request)) throw invalid("(body)", "must be a JSON object");
  return decodeLogsObject(request);
}

export function decodeLogsProtobuf(body: Buffer): { events: TSpanEvent[]; problems: string[] } {
  let request: Obj;
  try {
    request = decodeExportLogsRequestObject(body);
  } catch (error) {
    throw new AppError("validation_failed", `Not an OTLP ExportLogsServiceRequest: the protobuf body cannot be decoded (${(error as Error).message})`);
  }
  return decodeLogsObject(request);
}

function decodeLogsObject(request: Obj): { events: TSpanEvent[]; problems: string[] } {
  const events: TSpanEvent[] = [];
  const problems: string[] = [];
  listOf(request, "resourceLogs", "resource_logs", "").forEach((rl, i) => {
    listOf(rl, "scopeLogs", "scope_logs", `resourceLogs[${i}].`).forEach((sl, j) => {
      listOf(sl, "logRecords", "log_records", `resourceLogs[${i}].scopeLogs[${j}].`).forEach((record, k) => {
        const location = `resourceLogs[${i}].scopeLogs[${j}].logRecords[${k}]`;
        const attributes = keyValues(record.attributes);
        const name = field(record, "eventName", "event_name") || attributes["event.name"];
        if (typeof name !== "string" || !name.startsWith("gen_ai.")) return;
        const traceId = hexId(field(record, "traceId", "trace_id"), 16);
        const spanId = hexId(field(record, "spanId", "span_id"), 8);
        if (!traceId || !spanId) {
          problems.push(`${location}: the GenAI event ${name} has no valid traceId and spanId, so it belongs to no span`);
          return;
        }
        const time = nanosToIso(field(record, "timeUnixNano", "time_unix_nano")) ?? nanosToIso(field(record, "observedTimeUnixNano", "observed_time_unix_nano"));
        const body = record.body === undefined ? undefined : anyValue(record.body);
        events.push({ location, traceId, spanId, event: { name, time, attributes, ...(body !== undefined && body !== null ? { body } : {}) } });
      });
    });
  });
  return { events, problems };
}
