// The ingestion hot path's SQL (docs/architecture.md, "Database access"): one set-based statement per table per request,
// rows passed as one JSON array and expanded with jsonb_to_recordset (PGlite and PostgreSQL both).
// Every statement is scoped to the organization; rows arrive sorted by id so row locks are always
// taken in the same order and concurrent requests do not deadlock each other.
import { randomBytes } from "node:crypto";
import { join, sql, uuidArray, type Sql, type TBatchStatement } from "../../db/sql.ts";
import type { TSpanRow } from "./span-rows.ts";
import type { TTraceRow } from "./trace-rows.ts";

/**
 * A run of span rows as two JSON arrays of the same length: the rows without raw_span, and each row's
 * raw_span text. PostgreSQL unescapes every string of a document it reads rows from (in version 15, one
 * character at a time), but only checks the syntax of a document it splits into elements: the raw
 * documents, most of a span's bytes, go in the second array (bench/README.md, "Session 7").
 */
export interface TSpanArrays {
  rowsJson: string;
  rawJson: string;
}

export interface TFunctionExecutionRow {
  id: string;
  function_id: string;
  result: string | null;
  inputs: unknown;
  raw_collector: unknown;
  source: string | null;
  sdk_version: string | null;
}

/**
 * What every statement of one write attempt shares: its time (the app's clock, passed as a parameter so that
 * every node of a distributed database stores the same instant, and Citus accepts it where it refuses now()
 * inside ON CONFLICT … DO UPDATE), and its token, stored as final_xact on each span that became final in this
 * attempt, so that a later statement of the same transaction finds those spans on whichever node they live
 * (docs/operations.md, "Citus").
 */
export interface TWriteStamp {
  at: Date;
  /** A decimal xid8, above 2^62 so that it never equals the transaction ids older rows carry. */
  token: string;
}

/** A fresh stamp for one write attempt. */
export function newWriteStamp(): TWriteStamp {
  const random = BigInt(`0x${randomBytes(8).toString("hex")}`) & ((1n << 62n) - 1n);
  return { at: new Date(), token: String((1n << 62n) + random) };
}

/** Requests of up to this many traces have their traces upsert prepared (one statement text per count). */
const PREPARED_TRACE_COUNTS = 16;

/**
 * Inserts or updates the request's traces; its rows are `{ id, dropped }`, each trace's dropped flag after the write. The upsert
 * row-locks every trace the request touches until commit, which is what makes the completion check of
 * completeReadyTraces happen once per trace. A multi-row VALUES list with the organization as a constant, so
 * on Citus the statement goes whole to the one shard that holds the organization (docs/operations.md,
 * "Citus"). ON CONFLICT … DO UPDATE reads only the stored row, EXCLUDED and parameters: what a row's insert
 * value cannot tell (whether a field was sent at all) is passed as lists of trace ids.
 */
export function upsertTracesStatement(organizationId: string, traces: TTraceRow[], stamp: TWriteStamp): TBatchStatement {
  const at = stamp.at.toISOString();
  const ids = (keep: (t: TTraceRow) => boolean) => uuidArray(traces.filter(keep).map((t) => t.id));
  const rows = traces.map(
    (i) => sql`(${organizationId}::uuid, ${i.id}::uuid, ${i.source_trace_id}, ${i.name}, ${i.trace_function_key},
      ${i.ingestion_type ?? "captured"}, ${i.session_id}, ${JSON.stringify(i.metadata ?? {})}::jsonb,
      ${JSON.stringify(i.contexts ?? [])}::jsonb, ${i.external_trace === null ? null : JSON.stringify(i.external_trace)}::jsonb,
      ${i.source}, ${i.sdk_version}, ${i.started_at ?? i.span_started_at}::timestamptz, ${i.ended_at}::timestamptz,
      ${i.expected_span_count}::integer, ${i.completed ? at : null}::timestamptz, ${i.dropped}::boolean,
      ${i.dropped ? at : null}::timestamptz, ${i.test_run_id}::uuid, ${i.original_trace_id}::uuid,
      ${i.input_source_trace_id}, ${i.replay_attempt}::integer, ${at}::timestamptz)`,
  );
  return {
    statement: sql`
    INSERT INTO traces AS t (
      organization_id, id, source_trace_id, name, trace_function_key, ingestion_type, session_id, metadata,
      contexts, external_trace, source, sdk_version, started_at, ended_at, expected_span_count,
      completion_signal_at, dropped, dropped_at, test_run_id, original_trace_id, input_source_trace_id, replay_attempt,
      updated_at)
    VALUES ${join(rows)}
    ON CONFLICT (organization_id, id) DO UPDATE SET
      name = COALESCE(EXCLUDED.name, t.name),
      trace_function_key = CASE WHEN EXCLUDED.id = ANY(${ids((i) => i.key_from_completion)})
        THEN COALESCE(EXCLUDED.trace_function_key, t.trace_function_key)
        ELSE COALESCE(t.trace_function_key, EXCLUDED.trace_function_key) END,
      ingestion_type = CASE WHEN EXCLUDED.id = ANY(${ids((i) => i.ingestion_type !== null)}) THEN EXCLUDED.ingestion_type ELSE t.ingestion_type END,
      session_id = COALESCE(EXCLUDED.session_id, t.session_id),
      -- Completions merge metadata (the PATCH mergeMetadata keys survive); contexts are the SDK's full list.
      metadata = t.metadata || EXCLUDED.metadata,
      contexts = CASE WHEN EXCLUDED.id = ANY(${ids((i) => i.contexts !== null)}) THEN EXCLUDED.contexts ELSE t.contexts END,
      external_trace = COALESCE(EXCLUDED.external_trace, t.external_trace),
      source = COALESCE(t.source, EXCLUDED.source),
      sdk_version = COALESCE(t.sdk_version, EXCLUDED.sdk_version),
      -- A start the completion gave wins; else the stored one; else the earliest of the request's spans.
      started_at = CASE WHEN EXCLUDED.id = ANY(${ids((i) => i.started_at !== null)}) THEN EXCLUDED.started_at
        ELSE COALESCE(t.started_at, EXCLUDED.started_at) END,
      ended_at = COALESCE(EXCLUDED.ended_at, t.ended_at),
      expected_span_count = COALESCE(EXCLUDED.expected_span_count, t.expected_span_count),
      -- The completion signal is recorded separately from the completed status (state table rule 2).
      completion_signal_at = COALESCE(t.completion_signal_at, EXCLUDED.completion_signal_at),
      dropped = t.dropped OR EXCLUDED.dropped,
      dropped_at = COALESCE(t.dropped_at, EXCLUDED.dropped_at),
      test_run_id = COALESCE(EXCLUDED.test_run_id, t.test_run_id),
      original_trace_id = COALESCE(EXCLUDED.original_trace_id, t.original_trace_id),
      input_source_trace_id = COALESCE(EXCLUDED.input_source_trace_id, t.input_source_trace_id),
      replay_attempt = COALESCE(EXCLUDED.replay_attempt, t.replay_attempt),
      updated_at = EXCLUDED.updated_at
    RETURNING t.id, t.dropped`,
    // Its text depends only on the number of traces: the usual counts are parsed once per connection.
    prepareAs: traces.length <= PREPARED_TRACE_COUNTS ? `reprise_ingest_upsert_traces_${traces.length}` : undefined,
  };
}

/**
 * Upserts spans. A final payload replaces a start snapshot, never the reverse; of two final copies the
 * later one wins (docs/architecture.md, "Ingestion and completion"). It runs after the traces upsert of the same
 * transaction, which holds each trace's row lock, so the spans of a trace that is dropped (by this request, or by
 * one committed before the lock was taken) are discarded here; a drop committed while that upsert waited is
 * scrubbed by completion's statement, which runs last. A span that became final in this write attempt carries
 * the attempt's token (final_xact), which the completion statement then counts (completionSql): the stored row, locked and in its
 * latest version inside ON CONFLICT, says whether the span was final already, so a retried or later final copy
 * is never counted twice.
 */
export function upsertSpansStatement(organizationId: string, spans: TSpanArrays, traceIds: string[], stamp: TWriteStamp): TBatchStatement {
  return { statement: upsertSpansSql(organizationId, spans, traceIds, stamp), prepareAs: "reprise_ingest_upsert_spans" };
}

/**
 * The spans upsert as a fragment, without RETURNING (write-complete.queries.ts adds one to fold it into the
 * completion statement). Each row's organization is its trace's `organization_id` column, read from the trace's
 * row (which the traces upsert before it wrote, and which is not dropped), not a parameter: on Citus an
 * `INSERT … SELECT` whose distribution column comes from a co-located table's, filtered to one organization, goes
 * whole to that organization's shard (a router plan) instead of being pulled through the coordinator
 * (docs/operations.md, "Citus"). The same read discards the spans of dropped traces.
 */
export function upsertSpansSql(organizationId: string, spans: TSpanArrays, traceIds: string[], stamp: TWriteStamp): Sql {
  // `traceIds`: the traces of these spans, each probed by primary key (LATERAL … OFFSET 0): not a join or an
  // array the planner could turn into a scan of every trace for want of statistics. The request's rows are then
  // joined to those few traces by id.
  return sql`
    INSERT INTO spans AS s (
      organization_id, id, trace_id, parent_span_id, source_span_id, source_trace_id, source_parent_span_id,
      payload_type, source, sdk_version, trace_function_key, node_key, name, type, function_name, error, errors,
      raw_span, content_off_by_simulation_plan, instrumentation, span_origin_name, span_origin_version,
      started_at, ended_at, is_final, duration_ms, input_tokens, output_tokens, cached_tokens, total_tokens,
      reasoning_tokens, cost_usd, model, test_run_id, input_source_span_id, mocked, mock_source, final_xact, created_at, updated_at)
    SELECT k.organization_id, r.id, r.trace_id, r.parent_span_id, r.source_span_id, r.source_trace_id,
      r.source_parent_span_id, r.payload_type, r.source, r.sdk_version, r.trace_function_key, r.node_key, r.name,
      r.type, r.function_name, r.error, r.errors,
      -- Each row's raw document is the element of the second array at the same position, as json, not jsonb:
      -- the text and key order that were sent (migration 0110).
      r.value,
      r.content_off_by_simulation_plan, r.instrumentation, r.span_origin_name, r.span_origin_version,
      r.started_at, r.ended_at, r.is_final, r.duration_ms, r.input_tokens, r.output_tokens, r.cached_tokens,
      r.total_tokens, r.reasoning_tokens, r.cost_usd, r.model, r.test_run_id, r.input_source_span_id, r.mocked, r.mock_source,
      CASE WHEN r.is_final THEN ${stamp.token}::xid8 END, ${stamp.at.toISOString()}::timestamptz, ${stamp.at.toISOString()}::timestamptz
    FROM ROWS FROM (json_to_recordset(${spans.rowsJson}::json) AS (
      id uuid, trace_id uuid, parent_span_id uuid, source_span_id text, source_trace_id text,
      source_parent_span_id text, payload_type text, source text, sdk_version text, trace_function_key text,
      node_key text, name text, type text, function_name text, error text, errors jsonb,
      content_off_by_simulation_plan boolean, instrumentation text, span_origin_name text,
      span_origin_version text, started_at timestamptz, ended_at timestamptz, is_final boolean,
      duration_ms integer, input_tokens integer, output_tokens integer, cached_tokens integer,
      total_tokens integer, reasoning_tokens integer, cost_usd numeric, model text, test_run_id uuid, input_source_span_id text, mocked boolean,
      mock_source text), json_array_elements(${spans.rawJson}::json)) AS r
    JOIN (
      SELECT d.organization_id, d.id FROM unnest(${uuidArray(traceIds)}) AS w(id)
      CROSS JOIN LATERAL (
        SELECT d.organization_id, d.id FROM traces d
        WHERE d.organization_id = ${organizationId}::uuid AND d.id = w.id AND NOT d.dropped OFFSET 0
      ) d
    ) k ON k.id = r.trace_id
    ORDER BY r.id
    ON CONFLICT (organization_id, id) DO UPDATE SET
      trace_id = EXCLUDED.trace_id, parent_span_id = EXCLUDED.parent_span_id,
      source_span_id = EXCLUDED.source_span_id, source_trace_id = EXCLUDED.source_trace_id,
      source_parent_span_id = EXCLUDED.source_parent_span_id, payload_type = EXCLUDED.payload_type,
      source = EXCLUDED.source, sdk_version = EXCLUDED.sdk_version,
      trace_function_key = EXCLUDED.trace_function_key, node_key = EXCLUDED.node_key, name = EXCLUDED.name,
      type = EXCLUDED.type, function_name = EXCLUDED.function_name, error = EXCLUDED.error,
      errors = EXCLUDED.errors, raw_span = EXCLUDED.raw_span,
      content_off_by_simulation_plan = EXCLUDED.content_off_by_simulation_plan,
      instrumentation = EXCLUDED.instrumentation, span_origin_name = EXCLUDED.span_origin_name,
      span_origin_version = EXCLUDED.span_origin_version, started_at = EXCLUDED.started_at,
      ended_at = EXCLUDED.ended_at, is_final = EXCLUDED.is_final, duration_ms = EXCLUDED.duration_ms,
      input_tokens = EXCLUDED.input_tokens, output_tokens = EXCLUDED.output_tokens,
      cached_tokens = EXCLUDED.cached_tokens, total_tokens = EXCLUDED.total_tokens, model = EXCLUDED.model,
      reasoning_tokens = EXCLUDED.reasoning_tokens, cost_usd = EXCLUDED.cost_usd,
      test_run_id = EXCLUDED.test_run_id, input_source_span_id = EXCLUDED.input_source_span_id,
      mocked = EXCLUDED.mocked, mock_source = EXCLUDED.mock_source, updated_at = EXCLUDED.updated_at,
      -- The stored row, locked and in its latest version here, says whether the span was final already.
      final_xact = CASE WHEN s.is_final THEN s.final_xact ELSE EXCLUDED.final_xact END
    WHERE NOT s.is_final OR EXCLUDED.is_final`;
}

/** Records function executions of functions this organization owns; its rows are `{ id }`, the ones stored. */
export function insertFunctionExecutionsStatement(organizationId: string, rowsJson: string): TBatchStatement {
  return {
    statement: sql`
    INSERT INTO function_executions (id, organization_id, function_id, result, inputs, raw_collector, source, sdk_version)
    SELECT r.id, ${organizationId}::uuid, r.function_id, r.result, r.inputs, r.raw_collector, r.source, r.sdk_version
    FROM jsonb_to_recordset(${rowsJson}::jsonb) AS r(
      id uuid, function_id uuid, result text, inputs jsonb, raw_collector jsonb, source text, sdk_version text)
    JOIN functions f ON f.id = r.function_id AND f.organization_id = ${organizationId}::uuid
    RETURNING id`,
  };
}

export type { TSpanRow, TTraceRow };
