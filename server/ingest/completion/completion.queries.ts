// Trace completion (docs/api/ingestion.md, "Completion"), run inside the write
// transaction after the traces upsert locked every trace the request touched. This is a fresh
// statement, so under READ COMMITTED it sees the spans of every transaction that held a trace's lock
// before us (they committed) plus our own: whichever request locks last counts everything.
import { join, sql, uuidArray, type TBatchStatement } from "../../db/sql.ts";
import type { TWriteStamp } from "../write/write.queries.ts";

export const TRACE_COMPLETED_EVENT = "trace.completed";

/**
 * Completes the given traces that are ready: completion signal received, not dropped, still pending,
 * and distinct final spans (final_span_count, kept by the write) ≥ expectedSpanCount (no count = legacy
 * SDK: complete on the signal). Marks them "failed" when the root span recorded an error, else "completed";
 * its rows are `{ id, status }`, the traces it completed. It also scrubs the spans of any of the traces a
 * concurrent request dropped while the write waited for the trace's lock (write.queries.ts,
 * upsertTracesStatement). Reads and writes one organization's rows only and inserts nothing, so on Citus the
 * whole statement goes to the organization's shard (docs/operations.md, "Citus"); its outbox rows are written
 * by recordCompletionEventsStatement, next in the same transaction.
 */
export function completeReadyTracesStatement(organizationId: string, traceIds: string[], stamp: TWriteStamp): TBatchStatement {
  const at = stamp.at.toISOString();
  return {
    statement: sql`
      WITH probe AS (
        -- One primary-key probe per id. OFFSET 0 keeps the planner from flattening the probe into a join
        -- it would plan from statistics, which a young table lacks: guessing "few traces per organization",
        -- it would scan all of them on every request. The write keeps final_span_count, so readiness reads
        -- no span.
        SELECT c.* FROM unnest(${uuidArray(traceIds)}) AS wanted(id)
        CROSS JOIN LATERAL (
          SELECT t.id, t.dropped,
            t.status = 'pending' AND NOT t.dropped AND t.completion_signal_at IS NOT NULL
              AND (t.expected_span_count IS NULL OR t.expected_span_count <= t.final_span_count) AS ready
          FROM traces t
          WHERE t.organization_id = ${organizationId}::uuid AND t.id = wanted.id
          OFFSET 0
        ) c
      ), scrubbed AS (
        DELETE FROM spans
        WHERE organization_id = ${organizationId}::uuid AND trace_id = ANY(ARRAY(SELECT id FROM probe WHERE dropped))
      ), ready AS (
        -- A trace fails when a root span recorded an error: only its roots are read (a partial index), per
        -- trace by key (LATERAL … OFFSET 0), never as a join the planner, short of statistics, made a scan.
        SELECT p.id, f.failed FROM probe p
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
        -- The traces upsert earlier in this transaction holds each candidate's row lock.
        UPDATE traces t SET
          status = CASE WHEN r.failed THEN 'failed' ELSE 'completed' END,
          completed_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
        FROM ready r
        WHERE t.organization_id = ${organizationId}::uuid AND t.id = r.id
        RETURNING t.id, t.status
      )
      SELECT id, status FROM done`,
  };
}

/**
 * Writes one trace.completed outbox row per trace that completeReadyTracesStatement completed in this write
 * attempt (completed_at is the attempt's time); the outbox's unique key keeps it to one per trace even if
 * another request's attempt shares the instant.
 */
export function recordCompletionEventsStatement(organizationId: string, traceIds: string[], stamp: TWriteStamp): TBatchStatement {
  return {
    statement: sql`
      INSERT INTO trace_events (organization_id, trace_id, kind)
      -- The traces are read in a subquery of their own, each by primary key: on Citus an INSERT … SELECT that reads a
      -- distributed table directly, with the organization as a parameter, is planned over every shard. (Citus pulls
      -- this one through the coordinator: it is used where no statement may wait for another's answer, on
      -- PostgreSQL and PGlite; write-batch.ts.)
      SELECT ${organizationId}::uuid, c.id, ${TRACE_COMPLETED_EVENT} FROM unnest(ARRAY(
        SELECT d.id FROM unnest(${uuidArray(traceIds)}) AS wanted(id)
        CROSS JOIN LATERAL (
          SELECT t.id FROM traces t
          WHERE t.organization_id = ${organizationId}::uuid AND t.id = wanted.id
            AND t.completed_at = ${stamp.at.toISOString()}::timestamptz AND t.status IN ('completed', 'failed')
          OFFSET 0
        ) d
      )) AS c(id)
      ON CONFLICT (organization_id, trace_id, kind) DO NOTHING`,
  };
}

/**
 * The trace.completed outbox rows of traces known to have completed in this transaction, as a VALUES list with the
 * organization constant: on Citus a router statement, its ids drawn from the sequence on the coordinator
 * (write-batch.ts, writeAtOnceDistributed).
 */
export function insertCompletionEventsStatement(organizationId: string, traceIds: string[]): TBatchStatement {
  const rows = traceIds.map((id) => sql`(${organizationId}::uuid, ${id}::uuid, ${TRACE_COMPLETED_EVENT})`);
  return {
    statement: sql`
      INSERT INTO trace_events (organization_id, trace_id, kind) VALUES ${join(rows)}
      ON CONFLICT (organization_id, trace_id, kind) DO NOTHING`,
  };
}
