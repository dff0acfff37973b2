// Trace completion (docs/api/ingestion.md, "Completion"), run inside the write
// transaction after the traces upsert locked every trace the request touched. This is a fresh
// statement, so under READ COMMITTED it sees the spans of every transaction that held a trace's lock
// before us (they committed) plus our own: whichever request locks last counts everything.
import { sql, uuidArray, type SqlClient } from "../../db/sql.ts";

export const TRACE_COMPLETED_EVENT = "trace.completed";

/**
 * Completes the given traces that are ready: completion signal received, not dropped, still pending,
 * and distinct final spans ≥ expectedSpanCount (no count = legacy SDK: complete on the signal). Marks
 * them "failed" when the root span recorded an error, else "completed", and writes exactly one
 * trace.completed outbox row per trace in the same transaction. Returns the traces it completed.
 */
export async function completeReadyTraces(
  tx: SqlClient,
  organizationId: string,
  traceIds: string[],
): Promise<Array<{ id: string; status: string }>> {
  if (traceIds.length === 0) return [];
  return tx.query<{ id: string; status: string }>(sql`
    WITH ready AS (
      -- One primary-key probe per id. OFFSET 0 keeps the planner from flattening the probe into a join
      -- it would plan from statistics, which a young table lacks: guessing "few traces per organization",
      -- it would scan all of them on every request.
      SELECT c.id FROM unnest(${uuidArray(traceIds)}) AS wanted(id)
      CROSS JOIN LATERAL (
        SELECT t.id FROM traces t
        WHERE t.organization_id = ${organizationId}::uuid AND t.id = wanted.id
          AND t.status = 'pending' AND NOT t.dropped AND t.completion_signal_at IS NOT NULL
          AND (t.expected_span_count IS NULL OR t.expected_span_count <= (
            SELECT count(*) FROM spans s
            WHERE s.organization_id = t.organization_id AND s.trace_id = t.id AND s.is_final))
        OFFSET 0
      ) c
    ), done AS (
      UPDATE traces t SET
        status = CASE WHEN EXISTS (
          SELECT 1 FROM spans s
          WHERE s.organization_id = t.organization_id AND s.trace_id = t.id
            AND s.source_parent_span_id IS NULL AND s.error IS NOT NULL) THEN 'failed' ELSE 'completed' END,
        completed_at = now(), updated_at = now()
      WHERE t.organization_id = ${organizationId}::uuid AND t.id = ANY(ARRAY(SELECT id FROM ready))
      RETURNING t.id, t.status
    ), events AS (
      INSERT INTO trace_events (organization_id, trace_id, kind)
      SELECT ${organizationId}::uuid, id, ${TRACE_COMPLETED_EVENT} FROM done
      ON CONFLICT (organization_id, trace_id, kind) DO NOTHING
    )
    SELECT id, status FROM done`,
    { prepareAs: "reprise_ingest_complete_traces" },
  );
}
