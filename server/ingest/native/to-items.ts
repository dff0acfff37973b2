// Decoded OpenTelemetry spans → the shared write path's items (external_span payloads of type "otel", so
// they are imported spans: their sim plan nodes are locked and they are never mocked), plus what the
// native door records per trace (title, trace function, session, resource) inside the same transaction.
import { canonicalId } from "../../ids.ts";
import type { TIngestItem } from "../ingest.schemas.ts";
import { parsePayloadValue } from "../payloads/parse-payload.ts";
import { mapSpan, TRACE_FUNCTION_ATTRIBUTE, type TMappedSpan } from "./mapping/map-span.ts";
import type { TOtelEvent, TOtelSpan } from "./otel-span.ts";

/** payload_type of native spans; anything other than "sdk-function" is imported (docs/api/sim-plan.md). */
export const OTEL_PAYLOAD_TYPE = "otel";
export const OTEL_SOURCE = "otel";

/** Span ids are unique only within their trace, so the source id names both. */
export const sourceSpanId = (traceId: string, spanId: string) => `${traceId}-${spanId}`;

export interface TNativeTraceInfo {
  id: string;
  name: string | null;
  /** Set when this request settles it: a resource attribute, or the root span (its attribute, else service.name). */
  trace_function_key: string | null;
  session_id: string | null;
  metadata: Record<string, unknown>;
  started_at: string | null;
  ended_at: string | null;
}

export interface TNativeItems {
  items: TIngestItem[];
  locations: string[];
  reasons: string[];
  traces: Map<string, TNativeTraceInfo>;
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The trace function key: `reprise.trace_function` on the resource or the root span, else service.name. */
function traceFunctionOf(span: TOtelSpan, mapped: TMappedSpan, root: { span: TOtelSpan; mapped: TMappedSpan } | undefined) {
  const fromResource = str(span.resource[TRACE_FUNCTION_ATTRIBUTE]);
  const service = str(span.resource["service.name"]) ?? "unknown_service";
  if (fromResource) return { key: fromResource, settled: true };
  if (root) return { key: root.mapped.traceFunction ?? str(root.span.resource["service.name"]) ?? service, settled: true };
  return { key: mapped.traceFunction ?? service, settled: false };
}

function spanPayload(span: TOtelSpan, mapped: TMappedSpan, traceFunctionKey: string): Record<string, unknown> {
  const contexts = mapped.model !== null || mapped.tokens
    ? [{ model: mapped.model, inputTokens: mapped.tokens?.input ?? null, outputTokens: mapped.tokens?.output ?? null, cachedTokens: mapped.tokens?.cached ?? null, totalTokens: mapped.tokens?.total ?? null, reasoningTokens: mapped.tokens?.reasoning ?? null }]
    : [];
  const data: Record<string, unknown> = { name: span.name, type: mapped.type, contexts, error: mapped.error };
  if (mapped.input !== undefined) data.input = mapped.input;
  if (mapped.output !== undefined) data.output = mapped.output;
  if (mapped.systemInstructions !== undefined) data.system_instructions = mapped.systemInstructions;
  if (mapped.tools !== undefined) data.tools = mapped.tools;
  data.metadata = mapped.metadata;
  return {
    type: OTEL_PAYLOAD_TYPE,
    source: OTEL_SOURCE,
    sourceTraceId: span.traceId,
    traceFunctionKey,
    rawSpan: {
      id: sourceSpanId(span.traceId, span.spanId),
      trace_id: span.traceId,
      // A parent in another process (an upstream service) never arrives here: the span is this trace's root.
      parent_id: span.parentSpanId && !span.remoteParent ? sourceSpanId(span.traceId, span.parentSpanId) : null,
      started_at: span.startTime,
      ended_at: span.endTime ?? span.startTime,
      span_data: data,
      span_origin: { name: span.scope.name ?? OTEL_SOURCE, version: span.scope.version, instrumentation: { name: mapped.convention } },
      // The span as received, so it can be mapped again and nothing is lost.
      otel: {
        trace_id: span.traceId,
        span_id: span.spanId,
        parent_span_id: span.parentSpanId,
        remote_parent: span.remoteParent,
        kind: span.kind,
        status: span.status,
        attributes: span.attributes,
        events: span.events,
        links: span.links,
        scope: span.scope,
      },
    },
  };
}

/** The canonical id a native span is stored under. */
export const nativeSpanId = (organizationId: string, span: Pick<TOtelSpan, "traceId" | "spanId">) =>
  canonicalId(organizationId, sourceSpanId(span.traceId, span.spanId));

/**
 * `logEvents` are GenAI events received as log records, by canonical span id: they are mapped with
 * the span's own events, and stay in their own table rather than in the span's copy of what it sent.
 */
export function toNativeItems(
  organizationId: string,
  spans: Array<{ location: string; span: TOtelSpan }>,
  logEvents: Map<string, TOtelEvent[]> = new Map(),
): TNativeItems {
  const out: TNativeItems = { items: [], locations: [], reasons: [], traces: new Map() };
  const mapped = spans.map((s) => {
    const extra = logEvents.get(nativeSpanId(organizationId, s.span)) ?? [];
    return { ...s, mapped: mapSpan(extra.length ? { ...s.span, events: [...s.span.events, ...extra] } : s.span) };
  });
  const roots = new Map(mapped.filter((m) => m.span.parentSpanId === null || m.span.remoteParent).map((m) => [m.span.traceId, m]));
  for (const { location, span, mapped: m } of mapped) {
    const root = roots.get(span.traceId);
    const key = traceFunctionOf(span, m, root);
    const parsed = parsePayloadValue("external_span", spanPayload(span, m, key.key));
    if (!parsed.ok) {
      out.reasons.push(`${location}: ${parsed.rejection.message}`);
      continue;
    }
    out.items.push(parsed.item);
    out.locations.push(location);
    const id = canonicalId(organizationId, span.traceId);
    const info = out.traces.get(id) ?? { id, name: null, trace_function_key: null, session_id: null, metadata: {}, started_at: null, ended_at: null };
    info.session_id ??= m.sessionId;
    if (key.settled) info.trace_function_key = key.key;
    info.metadata = { "otel.resource": span.resource };
    if (root) {
      info.name = root.span.name || null;
      info.started_at = root.span.startTime;
      info.ended_at = root.span.endTime;
    }
    out.traces.set(id, info);
  }
  return out;
}
