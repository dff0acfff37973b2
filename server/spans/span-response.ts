// Stored span → wire shapes. Content lives in raw_span.span_data (docs/api/traces.md, "Span object"); derived metrics
// come from the columns computed at ingest. Source (SDK) ids are never exposed: ids are the canonical UUIDs.
import { resolveInstrumentation } from "../shared/instrumentation.ts";
import type { TSpanRow } from "./spans.queries.ts";
import type { TExternalSpan, TSpan } from "./spans.schemas.ts";

/**
 * span_data keys the replay view keeps: what replay needs to rebuild inputs and outputs (docs/api/traces.md,
 * "GET /api/sdk/externalSpans/{id}").
 */
export const REPLAY_VIEW_KEYS = ["input", "output", "input_meta", "output_meta", "input_serialized", "output_serialized"] as const;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function spanDataOf(rawSpan: unknown): Json {
  return isObject(rawSpan) && isObject(rawSpan.span_data) ? rawSpan.span_data : {};
}

export function toSpanResponse(row: TSpanRow): TSpan {
  const data = spanDataOf(row.rawSpan);
  return {
    id: row.id,
    traceId: row.traceId,
    parentSpanId: row.parentSpanId,
    name: row.name,
    type: row.type,
    input: data.input ?? null,
    output: data.output ?? null,
    contexts: Array.isArray(data.contexts) ? data.contexts : [],
    prompt: typeof data.prompt === "string" ? data.prompt : data.prompt == null ? null : JSON.stringify(data.prompt),
    metadata: metadataOf(row),
    metrics: { durationMs: row.durationMs, tokens: tokensOf(row), model: row.model, costUsd: row.costUsd === null ? null : Number(row.costUsd) },
    error: row.error,
    errors: errorsOf(row, data),
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

/** What the service knows about the span besides its content. */
function metadataOf(row: TSpanRow): Json {
  return {
    functionName: row.functionName,
    source: row.source,
    sdkVersion: row.sdkVersion,
    instrumentation: resolveInstrumentation(row.instrumentation, row.source, row.parentSpanId === null),
    spanOrigin: row.spanOriginName || row.spanOriginVersion ? { name: row.spanOriginName, version: row.spanOriginVersion } : null,
    contentOffBySimulationPlan: row.contentOffBySimulationPlan,
    final: row.isFinal,
    mocked: row.mocked,
    mockSource: row.mockSource,
    testRunId: row.testRunId,
  };
}

function tokensOf(row: TSpanRow): TSpan["metrics"]["tokens"] {
  const { inputTokens: i, outputTokens: o, cachedTokens: c, totalTokens: t } = row;
  if (i === null && o === null && c === null && t === null) return null;
  return { input: i ?? 0, output: o ?? 0, cached: c ?? 0, total: t ?? (i ?? 0) + (o ?? 0) };
}

/** Capture notes plus the span's own error as `{source, error}` (the outline's errors list); null when none. */
function errorsOf(row: TSpanRow, data: Json): TSpan["errors"] {
  const notes = Array.isArray(row.errors) ? (row.errors as unknown[]).filter(isObject) : [];
  const own = row.error !== null ? [{ source: typeof data.error_source === "string" ? data.error_source : "code", error: row.error }] : [];
  const all: Json[] = [...own, ...notes];
  return all.length > 0 ? (all as NonNullable<TSpan["errors"]>) : null;
}

/**
 * The stored rawSpan (docs/api/traces.md, "GET /api/sdk/externalSpans/{id}") with its SDK ids replaced by canonical
 * ones; the replay view keeps only the serialized input and output of span_data.
 */
export function toExternalSpanResponse(
  row: { id: string; traceId: string; parentSpanId: string | null; rawSpan: unknown },
  view: "replay" | undefined,
): TExternalSpan {
  const raw = isObject(row.rawSpan) ? row.rawSpan : {};
  if (view === "replay") {
    const data = spanDataOf(raw);
    const kept: Json = {};
    for (const key of REPLAY_VIEW_KEYS) if (Object.hasOwn(data, key)) kept[key] = data[key];
    return { id: row.id, externalTraceId: row.traceId, rawData: { span_data: kept } };
  }
  const rawData: Json = { ...raw, id: row.id, trace_id: row.traceId };
  if (row.parentSpanId !== null) rawData.parent_id = row.parentSpanId;
  else delete rawData.parent_id;
  return { id: row.id, externalTraceId: row.traceId, rawData };
}
