// The write's span statements, each folding in the completion statement (completion.queries.ts, completionSql). On
// PostgreSQL and PGlite a run of spans is one statement with data-modifying CTEs (the spans, the count of those that
// became final, and on the request's last run the completion check and its outbox rows): after the traces upsert, a
// request's write is one statement per run of spans (docs/architecture.md, "Batches"). Citus plans an INSERT inside a
// CTE apart from the rest, through the coordinator, so there the spans are upserted alone and one statement then
// counts and completes (write-batch.ts, docs/operations.md, "Citus").
import { sql, uuidArray, type TBatchStatement } from "../../db/sql.ts";
import { completionSql } from "../completion/completion.queries.ts";
import { upsertSpansSql, type TSpanArrays, type TWriteStamp } from "./write.queries.ts";

/**
 * Writes a run of spans (upsertSpansSql) and counts those that became final into their traces; with `complete`, then
 * completes every ready trace of `candidateIds` (the request's traces) and writes its outbox row. Its rows are
 * `{ id, status }`, the traces it completed.
 *
 * It must run after the traces upsert of the same transaction, as a later statement: its snapshot is then taken once
 * every request that held a trace's row lock before us has committed, so it sees their spans and their counts, and
 * the runs this request wrote before it (docs/api/ingestion.md, "Completion"). Its own spans are not in that
 * snapshot: what they change (how many became final, their cost, whether a root recorded an error) is read from the
 * upsert's RETURNING instead.
 */
export function writeSpansAndCompleteStatement(
  organizationId: string,
  spans: TSpanArrays,
  spanTraceIds: string[],
  candidateIds: string[],
  stamp: TWriteStamp,
  complete: boolean,
): TBatchStatement {
  const written = sql`${upsertSpansSql(organizationId, spans, spanTraceIds, stamp)}
        RETURNING s.id, s.trace_id, s.cost_usd, s.final_xact = ${stamp.token}::xid8 AS became_final,
          s.source_parent_span_id IS NULL AND s.error IS NOT NULL AS root_error`;
  return {
    statement: completionSql(organizationId, written, candidateIds, stamp, { complete, outbox: true }),
    // Its text is the same for every run (`complete` is a parameter).
    prepareAs: "reprise_ingest_write_spans_and_complete",
  };
}

/**
 * On Citus, after the spans upserts (write.queries.ts, upsertSpansStatement): the spans of `finalSpanIds` that became
 * final in this write attempt (those carrying its token, each probed by primary key) counted into their traces, then
 * the completion of `candidateIds`; its outbox rows follow as insertCompletionEventsStatement.
 */
export function countAndCompleteStatement(organizationId: string, finalSpanIds: string[], candidateIds: string[], stamp: TWriteStamp): TBatchStatement {
  const written = sql`SELECT f.* FROM unnest(${uuidArray(finalSpanIds)}) AS w(id)
        CROSS JOIN LATERAL (
          SELECT s.id, s.trace_id, s.cost_usd, true AS became_final, s.source_parent_span_id IS NULL AND s.error IS NOT NULL AS root_error
          FROM spans s WHERE s.organization_id = ${organizationId}::uuid AND s.id = w.id AND s.final_xact = ${stamp.token}::xid8
          OFFSET 0
        ) f`;
  return {
    statement: completionSql(organizationId, written, candidateIds, stamp, { complete: true, outbox: false }),
    prepareAs: "reprise_ingest_count_and_complete",
  };
}
