// OTLP/JSON (a parsed, envelope-checked body) → the typed request of otlp-request.ts. The lists that make up
// the envelope (resourceSpans, scopeSpans, spans and a span's attributes; resourceLogs, scopeLogs,
// logRecords) must be lists of objects, else the request is a 400 (envelope.ts); everything inside a span
// or log record is read leniently, as OTLP/JSON encoders differ: proto3 JSON names or snake_case, enums
// as numbers or names, int64 as numbers or decimal text.
import { isObject, field, otlpEnvelope, type Obj } from "./envelope.ts";
import type { TOtlpAnyValue, TOtlpKeyValue, TOtlpLogsRequest, TOtlpScope, TOtlpSpan, TOtlpTracesRequest } from "./otlp-request.ts";

export const tracesEnvelope = otlpEnvelope("ExportTraceServiceRequest");
export const logsEnvelope = otlpEnvelope("ExportLogsServiceRequest");

const KIND_NAMES = ["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"];
const STATUS_NAMES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"];

const stringOr = (v: unknown, fallback = ""): string => (typeof v === "string" ? v : fallback);

/** Enums arrive as numbers (most JSON encoders) or as their names (some JSON encoders). */
function enumOf(value: unknown, names: string[]): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string") {
    const i = names.indexOf(value);
    if (i >= 0) return i;
    if (/^\d+$/.test(value)) return Number(value);
  }
  return 0;
}

/** Trace and span ids are hex text in OTLP/JSON; anything else reads as absent. */
const idOf = (value: unknown): string => (typeof value === "string" ? value.toLowerCase() : "");

/** Nanoseconds since the epoch, as a number or decimal text; null when absent, unreadable or not positive. */
export function nanosOf(value: unknown): bigint | null {
  if (value === undefined || value === null || value === "" || value === 0 || value === "0") return null;
  let nanos: bigint;
  try {
    nanos = BigInt(typeof value === "number" ? Math.round(value) : String(value));
  } catch {
    return null;
  }
  return nanos > 0n ? nanos : null;
}

/** int64 as protobuf's values read: a number when the decimal text is exact as one, else the text. */
function intOf(value: unknown): number | string {
  if (typeof value === "number") return value;
  const text = String(value);
  const n = Number(text);
  return /^-?\d+$/.test(text) && Number.isSafeInteger(n) ? n : text;
}

function flagsOf(flags: unknown): number {
  if (typeof flags === "number") return flags;
  return typeof flags === "string" && /^\d+$/.test(flags) ? Number(flags) : 0;
}

/** An AnyValue: the first member set, in the order string, bool, int, double, array, kvlist, bytes. */
export function anyValueOf(value: unknown): TOtlpAnyValue {
  if (!isObject(value)) return {};
  const s = field(value, "stringValue", "string_value");
  if (typeof s === "string") return { stringValue: s };
  const b = field(value, "boolValue", "bool_value");
  if (b !== undefined && b !== null) return { boolValue: b === true || b === "true" };
  const i = field(value, "intValue", "int_value");
  if (i !== undefined && i !== null) return { intValue: intOf(i) };
  const d = field(value, "doubleValue", "double_value");
  if (d !== undefined && d !== null) return { doubleValue: typeof d === "number" ? d : Number(d) };
  const a = field(value, "arrayValue", "array_value");
  if (isObject(a)) return { arrayValue: (Array.isArray(a.values) ? a.values : []).map(anyValueOf) };
  const kv = field(value, "kvlistValue", "kvlist_value");
  if (isObject(kv)) return { kvlistValue: keyValuesOf(kv.values) };
  const bytes = field(value, "bytesValue", "bytes_value");
  if (typeof bytes === "string") return { bytesValue: bytes };
  return {};
}

/** A KeyValue list read leniently: not a list reads as empty; entries that are not keyed objects are skipped. */
function keyValuesOf(list: unknown): TOtlpKeyValue[] {
  if (!Array.isArray(list)) return [];
  return keyValueEntries(list);
}

function keyValueEntries(list: unknown[]): TOtlpKeyValue[] {
  const out: TOtlpKeyValue[] = [];
  for (const kv of list) if (isObject(kv) && typeof kv.key === "string") out.push({ key: kv.key, value: anyValueOf(kv.value) });
  return out;
}

function spanOf(raw: Obj, location: string): TOtlpSpan {
  const status = isObject(raw.status) ? raw.status : {};
  return {
    traceId: idOf(field(raw, "traceId", "trace_id")),
    spanId: idOf(field(raw, "spanId", "span_id")),
    parentSpanId: idOf(field(raw, "parentSpanId", "parent_span_id")),
    flags: flagsOf(raw.flags),
    name: stringOr(raw.name),
    kind: enumOf(raw.kind, KIND_NAMES),
    startTimeUnixNano: nanosOf(field(raw, "startTimeUnixNano", "start_time_unix_nano")),
    endTimeUnixNano: nanosOf(field(raw, "endTimeUnixNano", "end_time_unix_nano")),
    attributes: keyValueEntries(tracesEnvelope.listOf(raw, "attributes", "attributes", `${location}.`)),
    events: (Array.isArray(raw.events) ? raw.events : []).filter(isObject).map((e) => ({
      name: stringOr(e.name),
      timeUnixNano: nanosOf(field(e, "timeUnixNano", "time_unix_nano")),
      attributes: keyValuesOf(e.attributes),
    })),
    links: (Array.isArray(raw.links) ? raw.links : []).filter(isObject).map((l) => ({
      traceId: idOf(field(l, "traceId", "trace_id")),
      spanId: idOf(field(l, "spanId", "span_id")),
      attributes: keyValuesOf(l.attributes),
    })),
    status: { code: enumOf(status.code, STATUS_NAMES), message: stringOr(status.message) },
  };
}

export function tracesFromJson(request: Obj): TOtlpTracesRequest {
  const { listOf } = tracesEnvelope;
  return {
    resourceSpans: listOf(request, "resourceSpans", "resource_spans", "").map((rs, i) => ({
      resource: isObject(rs.resource) ? keyValuesOf(rs.resource.attributes) : [],
      scopeSpans: listOf(rs, "scopeSpans", "scope_spans", `resourceSpans[${i}].`).map((ss, j) => {
        const scope: TOtlpScope = isObject(ss.scope) ? { name: stringOr(ss.scope.name), version: stringOr(ss.scope.version) } : { name: "", version: "" };
        const spans = listOf(ss, "spans", "spans", `resourceSpans[${i}].scopeSpans[${j}].`);
        return { scope, spans: spans.map((raw, k) => spanOf(raw, `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`)) };
      }),
    })),
  };
}

export function logsFromJson(request: Obj): TOtlpLogsRequest {
  const { listOf } = logsEnvelope;
  return {
    resourceLogs: listOf(request, "resourceLogs", "resource_logs", "").map((rl, i) => ({
      scopeLogs: listOf(rl, "scopeLogs", "scope_logs", `resourceLogs[${i}].`).map((sl, j) => ({
        logRecords: listOf(sl, "logRecords", "log_records", `resourceLogs[${i}].scopeLogs[${j}].`).map((record) => ({
          eventName: stringOr(field(record, "eventName", "event_name")),
          timeUnixNano: nanosOf(field(record, "timeUnixNano", "time_unix_nano")),
          observedTimeUnixNano: nanosOf(field(record, "observedTimeUnixNano", "observed_time_unix_nano")),
          traceId: idOf(field(record, "traceId", "trace_id")),
          spanId: idOf(field(record, "spanId", "span_id")),
          attributes: keyValuesOf(record.attributes),
          body: record.body === undefined ? undefined : anyValueOf(record.body),
        })),
      })),
    })),
  };
}
