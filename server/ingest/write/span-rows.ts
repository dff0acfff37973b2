// external_span payload → one spans row (prisma/schema.prisma, model Span). Identity per docs/api/ingestion.md ("Span
// payload"): canonical ids from the organization and the SDK's source ids; carrier OTel ids never play a part.
import { canonicalId, isUuid } from "../../ids.ts";
import { spanCost, type TPrice } from "../../insight/cost/pricing.ts";
import type { TServerNote } from "../ingest.schemas.ts";
import type { TExternalSpanPayload } from "../payloads/span-payload.schemas.ts";
import {
  durationMs,
  FALLBACK_SPAN_NAME,
  nonEmptyString,
  parseTimestamp,
  spanError,
  spanType,
  tokensAndModel,
  MAX_KEY_LENGTH,
  MAX_LABEL_LENGTH,
  truncateKey,
} from "./span-fields.ts";

/** Column values, keyed as the spans table names them (the write statement reads them by name). */
export interface TSpanRow {
  id: string;
  trace_id: string;
  parent_span_id: string | null;
  source_span_id: string;
  source_trace_id: string;
  source_parent_span_id: string | null;
  payload_type: string;
  source: string | null;
  sdk_version: string | null;
  trace_function_key: string | null;
  node_key: string | null;
  name: string;
  type: string;
  function_name: string | null;
  error: string | null;
  errors: unknown[] | null;
  raw_span: unknown;
  content_off_by_simulation_plan: boolean;
  instrumentation: string | null;
  span_origin_name: string | null;
  span_origin_version: string | null;
  started_at: string | null;
  ended_at: string | null;
  is_final: boolean;
  duration_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_tokens: number | null;
  total_tokens: number | null;
  reasoning_tokens: number | null;
  /** USD (docs/cost.md); null when the span has nothing to price or no price matched its model. */
  cost_usd: number | null;
  model: string | null;
  test_run_id: string | null;
  input_source_span_id: string | null;
  mocked: boolean;
  mock_source: string | null;
}

const uuidOrNull = (value: string | null | undefined): string | null => (value && isUuid(value) ? value.toLowerCase() : null);

function keyColumn(value: string | null, what: string, notes: TServerNote[], max = MAX_KEY_LENGTH): string | null {
  if (value === null) return null;
  const cut = truncateKey(value, max);
  if (cut.truncated) notes.push({ source: "server", step: "truncate", error: `${what} truncated to ${cut.value.length} characters` });
  return cut.value;
}

export function toSpanRow(
  organizationId: string,
  p: TExternalSpanPayload,
  raw: Record<string, unknown>,
  serverNotes: TServerNote[],
  prices: readonly TPrice[] = [],
): TSpanRow {
  const rawSpan = raw.rawSpan as Record<string, unknown>;
  const data: Partial<NonNullable<TExternalSpanPayload["rawSpan"]["span_data"]>> = p.rawSpan.span_data ?? {};
  const origin = p.rawSpan.span_origin;
  const notes = [...serverNotes];
  const sourceSpanId = (p.rawSpan.id || p.id) as string;
  const sourceTraceId = (p.sourceTraceId || p.traceId || p.rawSpan.trace_id) as string;
  const sourceParent = p.rawSpan.parent_id || null; // absent, null or "" all mean a root (docs/api/ingestion.md)
  const started = parseTimestamp(p.rawSpan.started_at);
  const ended = parseTimestamp(p.rawSpan.ended_at);
  const tokens = tokensAndModel(data.contexts);
  const cost = spanCost(prices, { ...tokens, startedAt: started?.text ?? null });
  const name = keyColumn(nonEmptyString(data.name) ?? FALLBACK_SPAN_NAME, "span name", notes) as string;
  const nodeKey = keyColumn(p.rootTraceFunctionKey || p.traceFunctionKey || null, "trace function key", notes);
  const source = keyColumn(p.source ?? null, "source", notes, MAX_LABEL_LENGTH);
  const instrumentation = keyColumn(origin?.instrumentation?.name ?? null, "instrumentation name", notes, MAX_LABEL_LENGTH);
  const model = keyColumn(tokens.model, "model", notes, MAX_LABEL_LENGTH);
  const payloadErrors = Array.isArray(raw.errors) ? (raw.errors as unknown[]) : [];
  const errors = [...payloadErrors, ...notes];
  return {
    id: canonicalId(organizationId, sourceSpanId),
    trace_id: canonicalId(organizationId, sourceTraceId),
    parent_span_id: sourceParent ? canonicalId(organizationId, sourceParent) : null,
    source_span_id: sourceSpanId,
    source_trace_id: sourceTraceId,
    source_parent_span_id: sourceParent,
    payload_type: p.type || "sdk-function",
    source,
    sdk_version: p.sdkVersion ?? null,
    trace_function_key: p.traceFunctionKey ? truncateKey(p.traceFunctionKey).value : null,
    node_key: nodeKey,
    name,
    type: spanType(data.type),
    function_name: nonEmptyString(data.function_name),
    error: spanError(data.error, p.rawSpan.error),
    errors: errors.length > 0 ? errors : null,
    raw_span: rawSpan,
    content_off_by_simulation_plan: data.content_off_by_simulation_plan === true,
    instrumentation,
    span_origin_name: origin?.name ?? null,
    span_origin_version: origin?.version ?? null,
    started_at: started?.text ?? null,
    ended_at: ended?.text ?? null,
    // A span counts for completion once its final payload (with an end time) is stored (state table).
    is_final: ended !== null,
    duration_ms: durationMs(started, ended),
    input_tokens: tokens.input,
    output_tokens: tokens.output,
    cached_tokens: tokens.cached,
    total_tokens: tokens.total,
    reasoning_tokens: tokens.reasoning,
    cost_usd: cost.kind === "priced" ? cost.costUsd : null,
    model,
    test_run_id: uuidOrNull(p.testRunId || p.experimentId),
    input_source_span_id: p.rawSpan.input_source_span_id ?? null,
    mocked: p.mocked === true,
    mock_source: p.mockSource ?? null,
  };
}

/**
 * One row per span id: a retry or an OpenAI start/end pair in the same request would otherwise make
 * the upsert touch a row twice. A final copy beats a start snapshot; among equals the later one wins.
 */
export function dedupeSpanRows<T extends { row: TSpanRow }>(entries: T[]): T[] {
  const byId = new Map<string, T>();
  for (const entry of entries) {
    const current = byId.get(entry.row.id);
    if (!current || entry.row.is_final || !current.row.is_final) byId.set(entry.row.id, entry);
  }
  return [...byId.values()].sort((a, b) => (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
}
