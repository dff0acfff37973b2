// The usual request's spans, its count of spans that became final, its completion check and its outbox rows as one
// statement (data-modifying CTEs), on PostgreSQL and PGlite: after the traces upsert, a request's write is two
// statements instead of five (docs/architecture.md, "Batches"). Citus plans an INSERT inside a CTE apart from the
// rest, through the coordinator, so there the same work stays four statements, each routed to one shard
// (write-batch.ts, docs/operations.md, "Citus").
import { sql, uuidArray, type TBatchStatement } from "../../db/sql.ts";
import { TRACE_COMPLETED_EVENT } from "../completion/completion.queries.ts";
import { upsertSpansSql, type TSpanArrays, type TWriteStamp } from "./write.queries.ts";

/**
 * Writes the spans (upsertSpansSql), then, for every trace of `candidateIds` (the request's traces), adds the spans
 * that became final in this statement to its final_span_count and cost, completes it if it is ready, scrubs its spans
 * if a concurrent request dropped it, and writes its trace.completed outbox row; its rows are `{ id, status }`, the
 * traces it completed.
 *
 * It must run after the traces upsert of the same transaction, as a later statement: its snapshot is then taken
 * once every request that held a trace's row lock before us has committed, so it sees their spans and their counts
 * (docs/api/ingestion.md, "Completion"). Its own spans are not in that snapshot: what they change (how many became
 * final, their cost, whether a root recorded an error) is read from the upsert's RETURNING instead. Each trace row is
 * updated once (count and completion in one UPDATE), and only when something changed.
 */
export function writeSpansAndCompleteStatement(
  organizationId: string,
  spans: TSpanArrays,
  spanTraceIds: string[],
  candidateIds: string[],
  stamp: TWriteStamp,
): TBatchStatement {
  const at = stamp.at.toISOString();
  return {
    statement: sql`
      WITH written AS (
        ${upsertSpansSql(organizationId, spans, spanTraceIds, stamp)}
        RETURNING s.id, s.trace_id, s.cost_usd, s.final_xact = ${stamp.token}::xid8 AS became_final,
          s.source_parent_span_id IS NULL AND s.error IS NOT NULL AS root_error
      ), counted AS (
        SELECT w.trace_id, count(*) FILTER (WHERE w.became_final)::integer AS n,
          sum(w.cost_usd) FILTER (WHERE w.became_final) AS cost, bool_or(w.root_error) AS root_error
        FROM written w GROUP BY w.trace_id
      ), probe AS (
        -- One primary-key probe per id (OFFSET 0: never a join the planner, short of statistics, made a scan).
        SELECT c.id, c.dropped, COALESCE(k.n, 0) AS n, k.cost, COALESCE(k.root_error, false) AS root_error,
          c.status = 'pending' AND NOT c.dropped AND c.completion_signal_at IS NOT NULL
            AND (c.expected_span_count IS NULL OR c.expected_span_count <= c.final_span_count + COALESCE(k.n, 0)) AS ready
        FROM unnest(${uuidArray(candidateIds)}) AS wanted(id)
        CROSS JOIN LATERAL (
          SELECT t.id, t.dropped, t.status, t.completion_signal_at, t.expected_span_count, t.final_span_count
          FROM traces t WHERE t.organization_id = ${organizationId}::uuid AND t.id = wanted.id
          OFFSET 0
        ) c
        LEFT JOIN counted k ON k.trace_id = c.id
      ), scrubbed AS (
        DELETE FROM spans
        WHERE organization_id = ${organizationId}::uuid AND trace_id = ANY(ARRAY(SELECT id FROM probe WHERE dropped))
      ), changes AS (
        -- A trace fails when a root span recorded an error: one written now, or one stored before that this
        -- statement did not rewrite (only its roots are read, per trace by key).
        SELECT p.id, p.n, p.cost, p.ready, p.ready AND (p.root_error OR f.failed) AS failed FROM probe p
        CROSS JOIN LATERAL (
          SELECT count(*) > 0 AS failed FROM (
            SELECT 1 FROM spans sp
            WHERE p.ready AND NOT p.root_error AND sp.organization_id = ${organizationId}::uuid AND sp.trace_id = p.id
              AND sp.source_parent_span_id IS NULL AND sp.error IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM written w WHERE w.id = sp.id)
            LIMIT 1
          ) root
        ) f
        WHERE p.n > 0 OR p.ready
      ), done AS (
        -- The traces upsert earlier in this transaction holds each candidate's row lock.
        UPDATE traces t SET
          final_span_count = t.final_span_count + c.n,
          cost_usd = CASE WHEN c.cost IS NULL THEN t.cost_usd ELSE COALESCE(t.cost_usd, 0) + c.cost END,
          status = CASE WHEN NOT c.ready THEN t.status WHEN c.failed THEN 'failed' ELSE 'completed' END,
          completed_at = CASE WHEN c.ready THEN ${at}::timestamptz ELSE t.completed_at END,
          updated_at = CASE WHEN c.ready THEN ${at}::timestamptz ELSE t.updated_at END
        FROM changes c
        WHERE t.organization_id = ${organizationId}::uuid AND t.id = c.id
        RETURNING t.id, t.status, c.ready
      ), events AS (
        INSERT INTO trace_events (organization_id, trace_id, kind)
        SELECT ${organizationId}::uuid, d.id, ${TRACE_COMPLETED_EVENT} FROM done d WHERE d.ready
        ON CONFLICT (organization_id, trace_id, kind) DO NOTHING
      )
      SELECT id, status FROM done WHERE ready`,
    prepareAs: "reprise_ingest_write_spans_and_complete",
  };
}
