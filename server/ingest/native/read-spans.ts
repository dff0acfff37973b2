// A decoded OTLP traces request (server/ingest/otlp-wire/decode-otlp.ts, either encoding) → OpenTelemetry
// spans as the native door reads them (docs/otel.md). A span that cannot be used (ids missing or malformed)
// is reported with its location and reason, and counted in partialSuccess; every other span goes on.
import { spanLocation, type TOtlpSpan, type TOtlpTracesRequest } from "../otlp-wire/otlp-request.ts";
import { hasRemoteParent, keyValues, nanosToIso, validId, type TAttributes, type TOtelEvent, type TOtelSpan } from "./otel-span.ts";

export interface TReadSpans {
  spans: Array<{ location: string; span: TOtelSpan }>;
  /** "<location>: <reason>" for every span that cannot be used. */
  problems: string[];
}

const text = (v: string): string | null => (v !== "" ? v : null);

export function readOtelSpans(request: TOtlpTracesRequest): TReadSpans {
  const out: TReadSpans = { spans: [], problems: [] };
  request.resourceSpans.forEach((rs, i) => {
    const resource = keyValues(rs.resource);
    rs.scopeSpans.forEach((ss, j) => {
      const scope = { name: text(ss.scope.name), version: text(ss.scope.version) };
      ss.spans.forEach((raw, k) => {
        const location = spanLocation(i, j, k);
        const span = toSpan(raw, resource, scope);
        if (typeof span === "string") out.problems.push(`${location}: ${span}`);
        else out.spans.push({ location, span });
      });
    });
  });
  return out;
}

/** One span, or the reason it cannot be used. */
function toSpan(raw: TOtlpSpan, resource: TAttributes, scope: TOtelSpan["scope"]): TOtelSpan | string {
  const traceId = validId(raw.traceId, 16);
  if (!traceId) return "traceId must be 16 bytes (32 hex characters), not all zero";
  const spanId = validId(raw.spanId, 8);
  if (!spanId) return "spanId must be 8 bytes (16 hex characters), not all zero";
  // An all-zero parent id means no parent, as an empty one does.
  const parentSpanId = validId(raw.parentSpanId, 8);
  if (raw.parentSpanId !== "" && !parentSpanId && !/^0+$/.test(raw.parentSpanId)) {
    return "parentSpanId must be 8 bytes (16 hex characters) or empty";
  }
  const events: TOtelEvent[] = raw.events.map((e) => ({ name: e.name, time: nanosToIso(e.timeUnixNano), attributes: keyValues(e.attributes) }));
  const links = raw.links.flatMap((l) => {
    const t = validId(l.traceId, 16);
    const s = validId(l.spanId, 8);
    return t && s ? [{ traceId: t, spanId: s, attributes: keyValues(l.attributes) }] : [];
  });
  return {
    traceId,
    spanId,
    parentSpanId,
    remoteParent: parentSpanId !== null && hasRemoteParent(raw.flags),
    name: raw.name,
    kind: raw.kind,
    startTime: nanosToIso(raw.startTimeUnixNano),
    endTime: nanosToIso(raw.endTimeUnixNano),
    attributes: keyValues(raw.attributes),
    events,
    links,
    status: { code: raw.status.code, message: text(raw.status.message) },
    resource,
    scope,
  };
}
