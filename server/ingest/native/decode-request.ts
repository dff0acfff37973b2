// OTLP ExportTraceServiceRequest (OTLP/JSON, or protobuf decoded to plain objects) → OpenTelemetry spans.
// The envelope is validated before anything is stored: a body that is not an ExportTraceServiceRequest
// is a 400 (docs/otel.md). A span that cannot be used (ids missing or malformed) is reported with its
// location and reason, and counted in partialSuccess; every other span goes on.
import { decodeExportRequestObject } from "../../../proto/otlp.ts";
import { field, isObject, otlpEnvelope, type Obj } from "../otlp/envelope.ts";
import { hasRemoteParent, hexId, keyValues, nanosToIso, spanKindOf, statusCodeOf, type TOtelEvent, type TOtelSpan } from "./otel-span.ts";

const envelope = otlpEnvelope("ExportTraceServiceRequest");

export interface TDecodedRequest {
  spans: Array<{ location: string; span: TOtelSpan }>;
  /** "<location>: <reason>" for every span that cannot be used. */
  problems: string[];
}

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

export const decodeJsonRequest = (body: Buffer): TDecodedRequest => decodeRequestObject(envelope.fromJson(body));

export const decodeProtobufRequest = (body: Buffer): TDecodedRequest =>
  decodeRequestObject(envelope.fromProtobuf(body, decodeExportRequestObject));

function decodeRequestObject(request: Obj): TDecodedRequest {
  const out: TDecodedRequest = { spans: [], problems: [] };
  envelope.listOf(request, "resourceSpans", "resource_spans", "").forEach((rs, i) => {
    const resource = isObject(rs.resource) ? keyValues(rs.resource.attributes) : {};
    envelope.listOf(rs, "scopeSpans", "scope_spans", `resourceSpans[${i}].`).forEach((ss, j) => {
      const scopeObj = isObject(ss.scope) ? ss.scope : {};
      const scope = { name: text(scopeObj.name), version: text(scopeObj.version) };
      envelope.listOf(ss, "spans", "spans", `resourceSpans[${i}].scopeSpans[${j}].`).forEach((raw, k) => {
        const location = `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`;
        const span = toSpan(raw, resource, scope);
        if (typeof span === "string") out.problems.push(`${location}: ${span}`);
        else out.spans.push({ location, span });
      });
    });
  });
  return out;
}

/** One span, or the reason it cannot be used. */
function toSpan(raw: Obj, resource: Obj, scope: TOtelSpan["scope"]): TOtelSpan | string {
  const traceId = hexId(field(raw, "traceId", "trace_id"), 16);
  if (!traceId) return "traceId must be 16 bytes (32 hex characters), not all zero";
  const spanId = hexId(field(raw, "spanId", "span_id"), 8);
  if (!spanId) return "spanId must be 8 bytes (16 hex characters), not all zero";
  const rawParent = field(raw, "parentSpanId", "parent_span_id");
  const parentSpanId = hexId(rawParent, 8);
  const parentGiven = rawParent !== undefined && rawParent !== null && rawParent !== "" && !(rawParent instanceof Uint8Array && rawParent.length === 0);
  if (parentGiven && !parentSpanId && !/^0+$/.test(typeof rawParent === "string" ? rawParent : Buffer.from(rawParent as Uint8Array).toString("hex"))) {
    return "parentSpanId must be 8 bytes (16 hex characters) or empty";
  }
  const status = isObject(raw.status) ? raw.status : {};
  const events: TOtelEvent[] = (Array.isArray(raw.events) ? raw.events : []).filter(isObject).map((e) => ({
    name: typeof e.name === "string" ? e.name : "",
    time: nanosToIso(field(e, "timeUnixNano", "time_unix_nano")),
    attributes: keyValues(e.attributes),
  }));
  const links = (Array.isArray(raw.links) ? raw.links : []).filter(isObject).flatMap((l) => {
    const t = hexId(field(l, "traceId", "trace_id"), 16);
    const s = hexId(field(l, "spanId", "span_id"), 8);
    return t && s ? [{ traceId: t, spanId: s, attributes: keyValues(l.attributes) }] : [];
  });
  return {
    traceId,
    spanId,
    parentSpanId,
    remoteParent: parentSpanId !== null && hasRemoteParent(raw.flags),
    name: typeof raw.name === "string" ? raw.name : "",
    kind: spanKindOf(raw.kind),
    startTime: nanosToIso(field(raw, "startTimeUnixNano", "start_time_unix_nano")),
    endTime: nanosToIso(field(raw, "endTimeUnixNano", "end_time_unix_nano")),
    attributes: keyValues(raw.attributes),
    events,
    links,
    status: { code: statusCodeOf(status.code), message: text(status.message) },
    resource,
    scope,
  };
}
