// The ingestion hot path's SQL (docs/architecture.md, "Database access"): one set-based statement per table per request,
// rows passed as one JSON array and expanded with jsonb_to_recordset (PGlite and PostgreSQL both).
// Every statement is scoped to the organization; rows arrive sorted by id so row locks are always
// taken in the same order and concurrent requests do not deadlock each other.
import { empty, sql, uuidArray, type Sql, type SqlClient, type TBatchStatement } from "../../db/sql.ts";
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
 * Inserts or updates the request's traces (and, in the same statement, the first run of its spans);
 * returns each trace's dropped flag after the write. The upsert row-locks every trace the request
 * touches until commit, which is what makes the completion check of completeReadyTraces happen once
 * per trace. One statement instead of two saves a round trip to the database, which on loopback TCP
 * costs ~0.5 ms of the server's CPU (bench/README.md).
 *
 * The spans go first, so that the traces upsert can add the spans that became final to each trace's
 * final_span_count. Spans of a trace dropped in this request, or dropped before this statement began, are
 * discarded here; a drop committed while this statement waited for a trace's lock shows in the
 * returned `dropped`, and the caller scrubs that trace's spans (deleteSpansOfTraces, or completion's
 * statement) before it commits.
 */
export async function upsertTraces(
  tx: SqlClient,
  organizationId: string,
  rowsJson: string,
  spans?: TSpanArrays,
): Promise<Array<{ id: string; dropped: boolean }>> {
  const { statement, prepareAs } = upsertTracesStatement(organizationId, rowsJson, spans);
  return tx.query(statement, { prepareAs });
}

/** The statement of upsertTraces, for a batch (SqlDatabase.batch); its rows are `{ id, dropped }`. */
export function upsertTracesStatement(organizationId: string, rowsJson: string, spans?: TSpanArrays): TBatchStatement {
  if (spans === undefined) {
    return {
      statement: sql`WITH ${traceInput(rowsJson)}, finals AS (SELECT NULL::uuid AS trace_id, 0::integer AS n WHERE false),
        upserted AS (${upsertTracesSql(organizationId)})
        SELECT id, dropped FROM upserted`,
      prepareAs: "reprise_ingest_upsert_traces",
    };
  }
  // The request's traces are probed by primary key, one by one (LATERAL … OFFSET 0): not a join or an
  // array the planner could turn into a scan of every trace for want of statistics.
  const keep = sql`WHERE r.trace_id <> ALL(ARRAY(
      SELECT id FROM input WHERE dropped
      UNION ALL
      SELECT d.id FROM input i CROSS JOIN LATERAL (
        SELECT d.id FROM traces d WHERE d.organization_id = ${organizationId}::uuid AND d.id = i.id AND d.dropped OFFSET 0
      ) d
    ))`;
  return {
    statement: sql`WITH ${traceInput(rowsJson)},
      written AS (${upsertSpansStatement(organizationId, spans, keep)}),
      finals AS MATERIALIZED (${finalsOf()}),
      upserted AS (${upsertTracesSql(organizationId)})
      SELECT id, dropped FROM upserted`,
    prepareAs: "reprise_ingest_upsert_traces_spans",
  };
}

/** Per trace, the spans of `written` that became final in this transaction. */
function finalsOf(): Sql {
  return sql`SELECT trace_id, count(*) FILTER (WHERE became_final)::integer AS n FROM written GROUP BY trace_id`;
}

function traceInput(rowsJson: string): Sql {
  return sql`input AS (
      SELECT * FROM jsonb_to_recordset(${rowsJson}::jsonb) AS r(
        id uuid, source_trace_id text, name text, trace_function_key text, key_from_completion boolean,
        ingestion_type text, session_id text, metadata jsonb, contexts jsonb, external_trace jsonb,
        source text, sdk_version text, started_at timestamptz, span_started_at timestamptz, ended_at timestamptz,
        expected_span_count integer, completed boolean, dropped boolean, test_run_id uuid, original_trace_id uuid,
        input_source_trace_id text, replay_attempt integer)
    )`;
}

function upsertTracesSql(organizationId: string): Sql {
  return sql`
    INSERT INTO traces AS t (
      organization_id, id, source_trace_id, name, trace_function_key, ingestion_type, session_id, metadata,
      contexts, external_trace, source, sdk_version, started_at, ended_at, expected_span_count,
      completion_signal_at, dropped, dropped_at, test_run_id, original_trace_id, input_source_trace_id, replay_attempt,
      final_span_count)
    SELECT ${organizationId}::uuid, i.id, i.source_trace_id, i.name, i.trace_function_key,
      COALESCE(i.ingestion_type, 'captured'), i.session_id, COALESCE(i.metadata, '{}'::jsonb),
      COALESCE(i.contexts, '[]'::jsonb), i.external_trace, i.source, i.sdk_version,
      COALESCE(i.started_at, i.span_started_at), i.ended_at, i.expected_span_count,
      CASE WHEN i.completed THEN now() END, i.dropped, CASE WHEN i.dropped THEN now() END,
      i.test_run_id, i.original_trace_id, i.input_source_trace_id, i.replay_attempt,
      COALESCE((SELECT f.n FROM finals f WHERE f.trace_id = i.id), 0)
    FROM input i
    ORDER BY i.id
    ON CONFLICT (organization_id, id) DO UPDATE SET (
      name, trace_function_key, ingestion_type, session_id, metadata, contexts, external_trace, source,
      sdk_version, started_at, ended_at, expected_span_count, completion_signal_at, dropped, dropped_at,
      test_run_id, original_trace_id, input_source_trace_id, replay_attempt, final_span_count, updated_at
    ) = (
      SELECT COALESCE(i.name, t.name),
        CASE WHEN i.key_from_completion THEN COALESCE(i.trace_function_key, t.trace_function_key)
             ELSE COALESCE(t.trace_function_key, i.trace_function_key) END,
        COALESCE(i.ingestion_type, t.ingestion_type),
        COALESCE(i.session_id, t.session_id),
        -- Completions merge metadata (the PATCH mergeMetadata keys survive); contexts are the SDK's full list.
        CASE WHEN i.metadata IS NULL THEN t.metadata ELSE t.metadata || i.metadata END,
        COALESCE(i.contexts, t.contexts),
        COALESCE(i.external_trace, t.external_trace),
        COALESCE(t.source, i.source),
        COALESCE(t.sdk_version, i.sdk_version),
        COALESCE(i.started_at, t.started_at, i.span_started_at),
        COALESCE(i.ended_at, t.ended_at),
        COALESCE(i.expected_span_count, t.expected_span_count),
        -- The completion signal is recorded separately from the completed status (state table rule 2).
        COALESCE(t.completion_signal_at, CASE WHEN i.completed THEN now() END),
        t.dropped OR i.dropped,
        COALESCE(t.dropped_at, CASE WHEN i.dropped THEN now() END),
        COALESCE(i.test_run_id, t.test_run_id),
        COALESCE(i.original_trace_id, t.original_trace_id),
        COALESCE(i.input_source_trace_id, t.input_source_trace_id),
        COALESCE(i.replay_attempt, t.replay_attempt),
        t.final_span_count + EXCLUDED.final_span_count,
        now()
      FROM input i WHERE i.id = EXCLUDED.id
    )
    RETURNING t.id, t.dropped`;
}

/**
 * Scrubs every stored span of traces that are dropped (`dropped`, docs/api/ingestion.md, "Trace completion"):
 * dropped by this request, or by one that committed while this one waited for the trace's lock.
 */
export async function deleteSpansOfTraces(tx: SqlClient, organizationId: string, traceIds: string[]): Promise<void> {
  await tx.query(sql`
    WITH scrubbed AS (
      DELETE FROM spans
      WHERE organization_id = ${organizationId}::uuid
        AND trace_id = ANY(${uuidArray(traceIds)})
    )
    UPDATE traces SET final_span_count = 0 WHERE organization_id = ${organizationId}::uuid AND id = ANY(${uuidArray(traceIds)})`);
}

/**
 * Upserts spans. A final payload replaces a start snapshot, never the reverse; of two final copies the
 * later one wins (docs/architecture.md, "Ingestion and completion").
 */
export async function upsertSpans(tx: SqlClient, organizationId: string, spans: TSpanArrays, traceIds: string[]): Promise<void> {
  const { statement, prepareAs } = upsertSpansOfKeptTracesStatement(organizationId, spans, traceIds);
  await tx.query(statement, { prepareAs });
}

/**
 * upsertSpans as a batch's statement (SqlDatabase.batch), for a request's later runs of spans: it runs after
 * the traces upsert of the same transaction, which holds each trace's row lock, so the spans of a trace
 * that is dropped (by this request, or by one committed before the lock was taken) are discarded here as
 * upsertTraces discards them; a drop committed while that upsert waited is scrubbed by completion's
 * statement, which runs last.
 */
export function upsertSpansOfKeptTracesStatement(organizationId: string, spans: TSpanArrays, traceIds: string[]): TBatchStatement {
  // `traceIds`: the traces of these spans, each probed by primary key (LATERAL … OFFSET 0), as in
  // upsertTracesStatement.
  const keep = sql`WHERE r.trace_id <> ALL(ARRAY(
      SELECT d.id FROM unnest(${uuidArray(traceIds)}) AS w(id)
      CROSS JOIN LATERAL (
        SELECT d.id FROM traces d WHERE d.organization_id = ${organizationId}::uuid AND d.id = w.id AND d.dropped OFFSET 0
      ) d
    ))`;
  return {
    statement: sql`WITH written AS (${upsertSpansStatement(organizationId, spans, keep)}), finals AS MATERIALIZED (${finalsOf()})
      UPDATE traces t SET final_span_count = t.final_span_count + (SELECT f.n FROM finals f WHERE f.trace_id = t.id)
      -- Each trace by primary key, then by its address (stable: this transaction's traces upsert holds the
      -- row lock); no join for the planner to turn into a scan of every trace for want of statistics.
      WHERE t.ctid = ANY(ARRAY(
        SELECT k.ctid FROM finals f
        CROSS JOIN LATERAL (
          SELECT x.ctid FROM traces x WHERE x.organization_id = ${organizationId}::uuid AND x.id = f.trace_id OFFSET 0
        ) k
        WHERE f.n > 0
      ))`,
    prepareAs: "reprise_ingest_upsert_spans_kept",
  };
}

function upsertSpansStatement(organizationId: string, spans: TSpanArrays, where: Sql = empty): Sql {
  return sql`
    INSERT INTO spans AS s (
      organization_id, id, trace_id, parent_span_id, source_span_id, source_trace_id, source_parent_span_id,
      payload_type, source, sdk_version, trace_function_key, node_key, name, type, function_name, error, errors,
      raw_span, content_off_by_simulation_plan, instrumentation, span_origin_name, span_origin_version,
      started_at, ended_at, is_final, duration_ms, input_tokens, output_tokens, cached_tokens, total_tokens,
      model, test_run_id, input_source_span_id, mocked, mock_source, final_xact)
    SELECT ${organizationId}::uuid, r.id, r.trace_id, r.parent_span_id, r.source_span_id, r.source_trace_id,
      r.source_parent_span_id, r.payload_type, r.source, r.sdk_version, r.trace_function_key, r.node_key, r.name,
      r.type, r.function_name, r.error, r.errors,
      -- Each row's raw document is the element of the second array at the same position, as json, not jsonb:
      -- the text and key order that were sent (migration 0110).
      r.value,
      r.content_off_by_simulation_plan, r.instrumentation, r.span_origin_name, r.span_origin_version,
      r.started_at, r.ended_at, r.is_final, r.duration_ms, r.input_tokens, r.output_tokens, r.cached_tokens,
      r.total_tokens, r.model, r.test_run_id, r.input_source_span_id, r.mocked, r.mock_source,
      CASE WHEN r.is_final THEN pg_current_xact_id() END
    FROM ROWS FROM (json_to_recordset(${spans.rowsJson}::json) AS (
      id uuid, trace_id uuid, parent_span_id uuid, source_span_id text, source_trace_id text,
      source_parent_span_id text, payload_type text, source text, sdk_version text, trace_function_key text,
      node_key text, name text, type text, function_name text, error text, errors jsonb,
      content_off_by_simulation_plan boolean, instrumentation text, span_origin_name text,
      span_origin_version text, started_at timestamptz, ended_at timestamptz, is_final boolean,
      duration_ms integer, input_tokens integer, output_tokens integer, cached_tokens integer,
      total_tokens integer, model text, test_run_id uuid, input_source_span_id text, mocked boolean,
      mock_source text), json_array_elements(${spans.rawJson}::json)) AS r
    ${where}
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
      test_run_id = EXCLUDED.test_run_id, input_source_span_id = EXCLUDED.input_source_span_id,
      mocked = EXCLUDED.mocked, mock_source = EXCLUDED.mock_source, updated_at = now(),
      -- The stored row, locked and in its latest version here, says whether the span was final already.
      final_xact = CASE WHEN s.is_final THEN s.final_xact WHEN EXCLUDED.is_final THEN pg_current_xact_id() END
    WHERE NOT s.is_final OR EXCLUDED.is_final
    RETURNING s.trace_id, COALESCE(s.final_xact = pg_current_xact_id(), false) AS became_final`;
}

/** Records function executions of functions this organization owns; returns the ids stored. */
export async function insertFunctionExecutions(tx: SqlClient, organizationId: string, rowsJson: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(sql`
    INSERT INTO function_executions (id, organization_id, function_id, result, inputs, raw_collector, source, sdk_version)
    SELECT r.id, ${organizationId}::uuid, r.function_id, r.result, r.inputs, r.raw_collector, r.source, r.sdk_version
    FROM jsonb_to_recordset(${rowsJson}::jsonb) AS r(
      id uuid, function_id uuid, result text, inputs jsonb, raw_collector jsonb, source text, sdk_version text)
    JOIN functions f ON f.id = r.function_id AND f.organization_id = ${organizationId}::uuid
    RETURNING id`);
  return rows.map((r) => r.id);
}

export type { TSpanRow, TTraceRow };
