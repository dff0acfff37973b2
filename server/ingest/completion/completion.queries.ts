// Trace completion (docs/api/ingestion.md, "Completion"), run inside the write
// transaction after the traces upsert locked every trace the request touched. This is a fresh
// statement, so under READ COMMITTED it sees the spans of every transaction that held a trace's lock
// before us (they committed) plus our own: whichever request locks last counts everything.
import { sql, uuidArray, type SqlClient, type TBatchStatement } from "../../db/sql.ts";

export const TRACE_COMPLETED_EVENT = "trace.completed";

/**
 * Completes the given traces that are ready: completion signal received, not dropped, still pending,
 * and distinct final spans (final_span_count, kept by the write) ≥ expectedSpanCount (no count = legacy
 * SDK: complete on the signal). Marks
 * them "failed" when the root span recorded an error, else "completed", and writes exactly one
 * trace.completed outbox row per trace in the same transaction. Returns the traces it completed.
 */
export async function completeReadyTraces(
  tx: SqlClient,
  organizationId: string,
  traceIds: string[],
): Promise<Array<{ id: string; status: string }>> {
  if (traceIds.length === 0) return [];
  const { statement, prepareAs } = completeReadyTracesStatement(organizationId, traceIds);
  return tx.query<{ id: string; status: string }>(statement, { prepareAs });
}

/**
 * The statement of completeReadyTraces, for a batch (SqlDatabase.batch); its rows are `{ id, status }`. It
 * also scrubs the spans of any of the traces a concurrent request dropped while the write waited for the
 * trace's lock (write.queries.ts, upsertTracesStatement).
 */
export function completeReadyTracesStatement(organizationId: string, traceIds: string[]): TBatchStatement {
  return {
    statement: sql`
      WITH probe AS (
        -- One primary-key probe per id. OFFSET 0 keeps the planner from flattening the probe into a join
        -- it would plan from statistics, which a young table lacks: guessing "few traces per organization",
        -- it would scan all of them on every request. The write keeps final_span_count, so readiness reads
        -- no span.
        SELECT c.* FROM unnest(${uuidArray(traceIds)}) AS wanted(id)
        CROSS JOIN LATERAL (
          SELECT t.id, t.ctid, t.dropped,
            t.status = 'pending' AND NOT t.dropped AND t.completion_signal_at IS NOT NULL
              AND (t.expected_span_count IS NULL OR t.expected_span_count <= t.final_span_count) AS ready
          FROM traces t
          WHERE t.organization_id = ${organizationId}::uuid AND t.id = wanted.id
          OFFSET 0
        ) c
      ), scrubbed AS (
        -- Every subquery below reads per trace by key (LATERAL … OFFSET 0), never as a join or a hashed
        -- subplan, which the planner, short of statistics, made scans of the whole organization.
        DELETE FROM spans WHERE ctid = ANY(ARRAY(
          SELECT s.ctid FROM probe p
          CROSS JOIN LATERAL (
            SELECT sp.ctid FROM spans sp WHERE sp.organization_id = ${organizationId}::uuid AND sp.trace_id = p.id OFFSET 0
          ) s
          WHERE p.dropped
        ))
      ), ready AS (
        -- A trace fails when a root span recorded an error: only its roots are read (a partial index).
        SELECT p.id, p.ctid, f.failed FROM probe p
        CROSS JOIN LATERAL (
          SELECT count(*) > 0 AS failed FROM (
            SELECT 1 FROM spans sp
            WHERE sp.organization_id = ${organizationId}::uuid AND sp.trace_id = p.id
              AND sp.source_parent_span_id IS NULL AND sp.error IS NOT NULL
            LIMIT 1
          ) root
        ) f
        WHERE p.ready
      ), done AS (
        -- The rows found above, by their physical address alone (an organization condition here made the
        -- planner scan the organization's traces instead): they are this organization's, and the address is
        -- stable, as the traces upsert earlier in this transaction holds each candidate's row lock.
        UPDATE traces t SET
          status = CASE WHEN (SELECT r.failed FROM ready r WHERE r.id = t.id) THEN 'failed' ELSE 'completed' END,
          completed_at = now(), updated_at = now()
        WHERE t.ctid = ANY(ARRAY(SELECT ctid FROM ready))
        RETURNING t.id, t.status
      ), events AS (
        INSERT INTO trace_events (organization_id, trace_id, kind)
        SELECT ${organizationId}::uuid, id, ${TRACE_COMPLETED_EVENT} FROM done
        ON CONFLICT (organization_id, trace_id, kind) DO NOTHING
      )
      SELECT id, status FROM done`,
    prepareAs: "reprise_ingest_complete_traces",
  };
}
