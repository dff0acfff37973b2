// Trace rows: the stub a span creates when it arrives first, and the fields a completion payload
// carries (docs/api/ingestion.md: the trace row is created by whichever arrives first). Rows for one trace within a
// request are merged here, so the upsert touches each trace once, in id order.
import { canonicalId, isUuid } from "../../ids.ts";
import type { TExternalTracePayload } from "../payloads/trace-payload.schemas.ts";
import { nonEmptyString, parseTimestamp, truncateKey } from "./span-fields.ts";
import type { TSpanRow } from "./span-rows.ts";

export interface TTraceRow {
  id: string;
  source_trace_id: string;
  name: string | null;
  trace_function_key: string | null;
  /** The key came from a completion, which outranks the key spans suggest. */
  key_from_completion: boolean;
  /** null = not provided (keep what is stored; "captured" for a new row). */
  ingestion_type: "captured" | "seeded" | null;
  session_id: string | null;
  metadata: Record<string, unknown> | null;
  contexts: unknown[] | null;
  /** The externalTrace object as received; non-null exactly when a completion payload is in the request. */
  external_trace: Record<string, unknown> | null;
  source: string | null;
  sdk_version: string | null;
  started_at: string | null;
  /** Earliest start among the request's spans: the trace start until a completion says otherwise. */
  span_started_at: string | null;
  ended_at: string | null;
  expected_span_count: number | null;
  completed: boolean;
  dropped: boolean;
  test_run_id: string | null;
  original_trace_id: string | null;
  input_source_trace_id: string | null;
  replay_attempt: number | null;
}

const uuidOrNull = (value: string | null | undefined): string | null => (value && isUuid(value) ? value.toLowerCase() : null);

function emptyTraceRow(id: string, sourceTraceId: string): TTraceRow {
  return {
    id,
    source_trace_id: sourceTraceId,
    name: null,
    trace_function_key: null,
    key_from_completion: false,
    ingestion_type: null,
    session_id: null,
    metadata: null,
    contexts: null,
    external_trace: null,
    source: null,
    sdk_version: null,
    started_at: null,
    span_started_at: null,
    ended_at: null,
    expected_span_count: null,
    completed: false,
    dropped: false,
    test_run_id: null,
    original_trace_id: null,
    input_source_trace_id: null,
    replay_attempt: null,
  };
}

export function traceStubFromSpan(span: TSpanRow): TTraceRow {
  return {
    ...emptyTraceRow(span.trace_id, span.source_trace_id),
    trace_function_key: span.node_key,
    source: span.source,
    sdk_version: span.sdk_version,
    span_started_at: span.started_at,
    test_run_id: span.test_run_id,
  };
}

/** "captured" | "seeded"; anything else present resolves to "captured" (docs/api/ingestion.md, "Trace completion"). */
export function resolveIngestionType(value: unknown): "captured" | "seeded" | null {
  if (value === undefined || value === null) return null;
  return value === "seeded" ? "seeded" : "captured";
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

export function sourceTraceIdOfCompletion(p: TExternalTracePayload): string {
  return (p.externalTrace?.id || p.rawTrace?.id || p.id) as string;
}

export function traceRowFromCompletion(organizationId: string, p: TExternalTracePayload, raw: Record<string, unknown>): TTraceRow {
  const sourceTraceId = sourceTraceIdOfCompletion(p);
  // rawTrace is an alias of externalTrace (docs/api/ingestion.md, "Trace completion").
  const et: Partial<NonNullable<TExternalTracePayload["externalTrace"]>> = p.externalTrace ?? p.rawTrace ?? {};
  const rawEt = isObject(raw.externalTrace) ? raw.externalTrace : isObject(raw.rawTrace) ? raw.rawTrace : {};
  const inputSource = nonEmptyString(et.input_source_trace_id);
  const key = nonEmptyString(p.traceFunctionKey);
  return {
    ...emptyTraceRow(canonicalId(organizationId, sourceTraceId), sourceTraceId),
    // The top level wins (docs/api/ingestion.md, "Trace completion"); name wins over workflow_name.
    name: nonEmptyString(p.name) ?? nonEmptyString(p.workflow_name) ?? nonEmptyString(et.name) ?? nonEmptyString(et.workflow_name),
    trace_function_key: key ? truncateKey(key).value : null,
    key_from_completion: true,
    ingestion_type: resolveIngestionType(p.ingestion_type ?? et.ingestion_type),
    session_id: p.sessionId ?? null,
    metadata: isObject(rawEt.metadata) ? rawEt.metadata : null,
    contexts: Array.isArray(rawEt.contexts) ? rawEt.contexts : null,
    external_trace: rawEt,
    source: p.source ?? null,
    sdk_version: p.sdkVersion ?? null,
    started_at: parseTimestamp(et.started_at)?.text ?? null,
    ended_at: parseTimestamp(et.ended_at)?.text ?? null,
    expected_span_count: p.expectedSpanCount ?? null,
    // completed:false only creates/updates (docs/api/ingestion.md, "Trace completion"); a body without the flag is a
    // completion.
    completed: p.completed !== false,
    dropped: p.dropped === true,
    test_run_id: uuidOrNull(p.testRunId || p.experimentId),
    input_source_trace_id: inputSource,
    original_trace_id: inputSource ? canonicalId(organizationId, inputSource) : null,
    replay_attempt: et.replay_attempt ?? null,
  };
}

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Date.parse(a) <= Date.parse(b) ? a : b);

/** Folds `next` (later in the request) into `prev`. */
function mergeTwo(prev: TTraceRow, next: TTraceRow): TTraceRow {
  const key =
    next.key_from_completion && next.trace_function_key
      ? next.trace_function_key
      : prev.key_from_completion
        ? prev.trace_function_key ?? next.trace_function_key
        : prev.trace_function_key ?? next.trace_function_key;
  return {
    id: prev.id,
    source_trace_id: prev.source_trace_id,
    name: next.name ?? prev.name,
    trace_function_key: key,
    key_from_completion: prev.key_from_completion || next.key_from_completion,
    ingestion_type: next.ingestion_type ?? prev.ingestion_type,
    session_id: next.session_id ?? prev.session_id,
    // Spread defines own properties, so a `__proto__` key stays an ordinary key.
    metadata: prev.metadata && next.metadata ? { ...prev.metadata, ...next.metadata } : (next.metadata ?? prev.metadata),
    contexts: next.contexts ?? prev.contexts,
    external_trace: next.external_trace ?? prev.external_trace,
    source: prev.source ?? next.source,
    sdk_version: prev.sdk_version ?? next.sdk_version,
    started_at: next.started_at ?? prev.started_at,
    span_started_at: earlier(prev.span_started_at, next.span_started_at),
    ended_at: next.ended_at ?? prev.ended_at,
    expected_span_count: next.expected_span_count ?? prev.expected_span_count,
    completed: prev.completed || next.completed,
    dropped: prev.dropped || next.dropped,
    test_run_id: next.test_run_id ?? prev.test_run_id,
    original_trace_id: next.original_trace_id ?? prev.original_trace_id,
    input_source_trace_id: next.input_source_trace_id ?? prev.input_source_trace_id,
    replay_attempt: next.replay_attempt ?? prev.replay_attempt,
  };
}

/** One row per trace id, sorted by id (the lock order of the write transaction). */
export function mergeTraceRows(rows: TTraceRow[]): TTraceRow[] {
  const byId = new Map<string, TTraceRow>();
  for (const row of rows) {
    const prev = byId.get(row.id);
    byId.set(row.id, prev ? mergeTwo(prev, row) : row);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
