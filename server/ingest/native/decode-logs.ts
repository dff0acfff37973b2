// OTLP ExportLogsServiceRequest (JSON, or protobuf decoded to plain objects) → GenAI events of spans.
// Only log records that are GenAI events (event name gen_ai.*) are kept; other log records are
// accepted and ignored, as a collector's traces-only pipeline would. A GenAI event without a valid
// span context cannot be attached to anything and is reported in partialSuccess.
import { decodeExportLogsRequestObject } from "../../../proto/otlp.ts";
import { field, otlpEnvelope, type Obj } from "../otlp/envelope.ts";
import { anyValue, hexId, keyValues, nanosToIso, type TOtelEvent } from "./otel-span.ts";

const envelope = otlpEnvelope("ExportLogsServiceRequest");

export interface TSpanEvent {
  location: string;
  traceId: string;
  spanId: string;
  event: TOtelEvent;
}

type TDecodedLogs = { events: TSpanEvent[]; problems: string[] };

export const decodeLogsJson = (body: Buffer): TDecodedLogs => decodeLogsObject(envelope.fromJson(body));

export const decodeLogsProtobuf = (body: Buffer): TDecodedLogs =>
  decodeLogsObject(envelope.fromProtobuf(body, decodeExportLogsRequestObject));

function decodeLogsObject(request: Obj): TDecodedLogs {
  const events: TSpanEvent[] = [];
  const problems: string[] = [];
  envelope.listOf(request, "resourceLogs", "resource_logs", "").forEach((rl, i) => {
    envelope.listOf(rl, "scopeLogs", "scope_logs", `resourceLogs[${i}].`).forEach((sl, j) => {
      envelope.listOf(sl, "logRecords", "log_records", `resourceLogs[${i}].scopeLogs[${j}].`).forEach((record, k) => {
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
