// Trace completion (docs/api/ingestion.md, "Completion"), run inside the write transaction after the traces upsert
// locked every trace the request touched, as the write's last statement. A later statement than that upsert, so
// under READ COMMITTED it sees the spans of every transaction that held a trace's lock before us (they committed)
// plus our own earlier statements': whichever request locks last counts everything.
import { empty, join, sql, uuidArray, type Sql, type TBatchStatement } from "../../db/sql.ts";
import type { TWriteStamp } from "../write/write.queries.ts";

export const TRACE_COMPLETED_EVENT = "trace.completed";

/** The spans a completion statement counts: rows `{ id, trace_id, cost_usd, became_final, root_error }`. */
export type TWrittenSpans = Sql;

export interface TCompletionOptions {
  /** False: only count the written spans (a run of spans before the request's last statement). */
  complete: boolean;
  /**
   * Writes the outbox rows inside the statement (a data-modifying CTE). Citus plans an INSERT inside a CTE through
   * the coordinator, so there the outbox rows follow as insertCompletionEventsStatement instead.
   */
  outbox: boolean;
}

/**
 * For every trace of `candidateIds`: adds the spans of `written` that became final to its final_span_count and cost,
 * completes it if it is ready, scrubs its spans (and zeroes its count) if it is dropped, and (`outbox`) writes its
 * trace.completed outbox row; the statement's rows are `{ id, status }`, the traces it completed.
 *
 * `written` is either the spans upsert of this very statement (its RETURNING: its rows are not in the statement's
 * snapshot, so what they change is read from there) or a read of the spans an earlier statement of the attempt made
 * final (their final_xact is the attempt's token). Readiness: completion signal received, not dropped, still
 * pending, and final spans ≥ expectedSpanCount (no count = legacy SDK: complete on the signal); "failed" when a root
 * span recorded an error, else "completed". Reads and writes one organization's rows only, so on Citus (without
 * `outbox`) the statement goes to the organization's shard (docs/operations.md, "Citus"). Each trace row is updated
 * once, and only when something changed.
 */
export function completionSql(organizationId: string, written: TWrittenSpans, candidateIds: string[], stamp: TWriteStamp, options: TCompletionOptions): Sql {
  const at = stamp.at.toISOString();
  return sql`
      WITH written AS (
        ${written}
      ), counted AS (
        SELECT w.trace_id, count(*) FILTER (WHERE w.became_final)::integer AS n,
          sum(w.cost_usd) FILTER (WHERE w.became_final) AS cost, bool_or(w.root_error) AS root_error
        FROM written w GROUP BY w.trace_id
      ), probe AS (
        -- One primary-key probe per id. OFFSET 0 keeps the planner from flattening the probe into a join it would
        -- plan from statistics, which a young table lacks: guessing "few traces per organization", it would scan all
        -- of them on every request. The write keeps final_span_count, so readiness reads no span.
        SELECT c.id, c.dropped, c.final_span_count, COALESCE(k.n, 0) AS n, k.cost, COALESCE(k.root_error, false) AS root_error,
          ${options.complete}::boolean AND c.status = 'pending' AND NOT c.dropped AND c.completion_signal_at IS NOT NULL
            AND (c.expected_span_count IS NULL OR c.expected_span_count <= c.final_span_count + COALESCE(k.n, 0)) AS ready
        FROM unnest(${uuidArray(candidateIds)}) AS wanted(id)
        CROSS JOIN LATERAL (
          SELECT t.id, t.dropped, t.status, t.completion_signal_at, t.expected_span_count, t.final_span_count
          FROM traces t WHERE t.organization_id = ${organizationId}::uuid AND t.id = wanted.id
          OFFSET 0
        ) c
        LEFT JOIN counted k ON k.trace_id = c.id
      ), scrubbed AS (
        -- A trace dropped by this request, or by one that committed while this one waited for the trace's lock
        -- (docs/api/ingestion.md, "Trace completion"): the spans upsert already discards its new spans.
        DELETE FROM spans
        WHERE organization_id = ${organizationId}::uuid AND trace_id = ANY(ARRAY(SELECT id FROM probe WHERE dropped))
      ), changes AS (
        -- A trace fails when a root span recorded an error: one written now, or one stored before that this
        -- statement did not rewrite (only its roots are read, per trace by key).
        SELECT p.id, p.n, p.cost, p.dropped, p.ready, p.ready AND (p.root_error OR f.failed) AS failed FROM probe p
        CROSS JOIN LATERAL (
          SELECT count(*) > 0 AS failed FROM (
            SELECT 1 FROM spans sp
            WHERE p.ready AND NOT p.root_error AND sp.organization_id = ${organizationId}::uuid AND sp.trace_id = p.id
              AND sp.source_parent_span_id IS NULL AND sp.error IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM written w WHERE w.id = sp.id)
            LIMIT 1
          ) root
        ) f
        WHERE p.n > 0 OR p.ready OR (p.dropped AND p.final_span_count <> 0)
      ), done AS (
        -- The traces upsert earlier in this transaction holds each candidate's row lock.
        UPDATE traces t SET
          final_span_count = CASE WHEN c.dropped THEN 0 ELSE t.final_span_count + c.n END,
          cost_usd = CASE WHEN c.cost IS NULL THEN t.cost_usd ELSE COALESCE(t.cost_usd, 0) + c.cost END,
          status = CASE WHEN NOT c.ready THEN t.status WHEN c.failed THEN 'failed' ELSE 'completed' END,
          completed_at = CASE WHEN c.ready THEN ${at}::timestamptz ELSE t.completed_at END,
          updated_at = CASE WHEN c.ready THEN ${at}::timestamptz ELSE t.updated_at END
        FROM changes c
        WHERE t.organization_id = ${organizationId}::uuid AND t.id = c.id
        RETURNING t.id, t.status, c.ready
      )${options.outbox ? sql`, events AS (
        ${completionEventsSql(sql`SELECT ${organizationId}::uuid, d.id, ${TRACE_COMPLETED_EVENT} FROM done d WHERE d.ready`)}
      )` : empty}
      SELECT id, status FROM done WHERE ready`;
}

/**
 * The one outbox write: one trace.completed row per trace the write completed. The outbox's unique key keeps it to
 * one per trace, so a retried attempt never duplicates it. `rows`: (organization_id, trace_id, kind) rows.
 */
function completionEventsSql(rows: Sql): Sql {
  return sql`INSERT INTO trace_events (organization_id, trace_id, kind) ${rows}
        ON CONFLICT (organization_id, trace_id, kind) DO NOTHING`;
}

/**
 * The outbox rows as a statement of their own, for the traces the completion statement completed: a VALUES list with
 * the organization constant, a router statement on Citus, its ids drawn from the sequence on the coordinator (which
 * Citus refuses for an `INSERT … SELECT` it would push down to the shard; write-batch.ts).
 */
export function insertCompletionEventsStatement(organizationId: string, traceIds: string[]): TBatchStatement {
  const rows = traceIds.map((id) => sql`(${organizationId}::uuid, ${id}::uuid, ${TRACE_COMPLETED_EVENT})`);
  return { statement: completionEventsSql(sql`VALUES ${join(rows)}`) };
}
