// OTLP/protobuf (the messages proto/otlp.ts decodes) → the typed request of otlp-request.ts, the same shapes
// OTLP/JSON becomes: ids from bytes to hex, 64-bit integers from protobufjs's Long, the AnyValue oneof to
// the member it names. protobufjs leaves unset fields on the prototype (proto3 defaults), so a field the
// sender left out reads here as OTLP/JSON's missing field does.
import type { PbAnyValue, PbExportLogsServiceRequest, PbExportTraceServiceRequest, PbKeyValue, PbLong, PbSpan } from "../../../proto/otlp.ts";
import type { TOtlpAnyValue, TOtlpKeyValue, TOtlpLogsRequest, TOtlpSpan, TOtlpTracesRequest } from "./otlp-request.ts";

function hexOf(bytes: Uint8Array | undefined): string {
  if (!bytes || bytes.length === 0) return "";
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)).toString("hex");
}

function bigintOf(value: PbLong | number): bigint {
  if (typeof value === "number") return BigInt(Math.round(value));
  const bits = (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
  return value.unsigned ? bits : BigInt.asIntN(64, bits);
}

/** fixed64 nanoseconds since the epoch; null when unset (0). */
function nanosOf(value: PbLong | number | undefined): bigint | null {
  if (value === undefined || value === null) return null;
  const nanos = bigintOf(value);
  return nanos > 0n ? nanos : null;
}

/** int64 attribute values: a number when exact, else the decimal text. */
function intOf(value: PbLong | number): number | string {
  const n = bigintOf(value);
  const asNumber = Number(n);
  return Number.isSafeInteger(asNumber) ? asNumber : n.toString();
}

function anyValueOf(value: PbAnyValue | null | undefined): TOtlpAnyValue {
  switch (value?.value) {
    case "stringValue":
      return { stringValue: value.stringValue ?? "" };
    case "boolValue":
      return { boolValue: value.boolValue === true };
    case "intValue":
      return { intValue: intOf(value.intValue ?? 0) };
    case "doubleValue":
      return { doubleValue: value.doubleValue ?? 0 };
    case "arrayValue":
      return { arrayValue: (value.arrayValue?.values ?? []).map(anyValueOf) };
    case "kvlistValue":
      return { kvlistValue: keyValuesOf(value.kvlistValue?.values) };
    case "bytesValue":
      return { bytesValue: value.bytesValue ?? new Uint8Array() };
    default:
      return {};
  }
}

/** A KeyValue without a key on the wire names nothing and is skipped, as OTLP/JSON's keyless entries are. */
function keyValuesOf(list: PbKeyValue[] | undefined): TOtlpKeyValue[] {
  const out: TOtlpKeyValue[] = [];
  for (const kv of list ?? []) if (Object.hasOwn(kv, "key")) out.push({ key: kv.key ?? "", value: anyValueOf(kv.value) });
  return out;
}

function spanOf(span: PbSpan): TOtlpSpan {
  return {
    traceId: hexOf(span.traceId),
    spanId: hexOf(span.spanId),
    parentSpanId: hexOf(span.parentSpanId),
    flags: span.flags ?? 0,
    name: span.name ?? "",
    kind: span.kind ?? 0,
    startTimeUnixNano: nanosOf(span.startTimeUnixNano),
    endTimeUnixNano: nanosOf(span.endTimeUnixNano),
    attributes: keyValuesOf(span.attributes),
    events: (span.events ?? []).map((e) => ({ name: e.name ?? "", timeUnixNano: nanosOf(e.timeUnixNano), attributes: keyValuesOf(e.attributes) })),
    links: (span.links ?? []).map((l) => ({ traceId: hexOf(l.traceId), spanId: hexOf(l.spanId), attributes: keyValuesOf(l.attributes) })),
    status: { code: span.status?.code ?? 0, message: span.status?.message ?? "" },
  };
}

export function tracesFromProtobuf(request: PbExportTraceServiceRequest): TOtlpTracesRequest {
  return {
    resourceSpans: (request.resourceSpans ?? []).map((rs) => ({
      resource: keyValuesOf(rs.resource?.attributes),
      scopeSpans: (rs.scopeSpans ?? []).map((ss) => ({
        scope: { name: ss.scope?.name ?? "", version: ss.scope?.version ?? "" },
        spans: (ss.spans ?? []).map(spanOf),
      })),
    })),
  };
}

export function logsFromProtobuf(request: PbExportLogsServiceRequest): TOtlpLogsRequest {
  return {
    resourceLogs: (request.resourceLogs ?? []).map((rl) => ({
      scopeLogs: (rl.scopeLogs ?? []).map((sl) => ({
        logRecords: (sl.logRecords ?? []).map((r) => ({
          eventName: r.eventName ?? "",
          timeUnixNano: nanosOf(r.timeUnixNano),
          observedTimeUnixNano: nanosOf(r.observedTimeUnixNano),
          traceId: hexOf(r.traceId),
          spanId: hexOf(r.spanId),
          attributes: keyValuesOf(r.attributes),
          body: r.body ? anyValueOf(r.body) : undefined,
        })),
      })),
    })),
  };
}
