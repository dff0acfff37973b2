// The only database access of trace deletion (docs/operations.md, "Deleting data"). Every statement names one
// organization, so on Citus it runs on that organization's shard group and never locks another's rows.
import type { DbClient } from "../../db/client.ts";
import { sql, uuidArray } from "../../db/sql.ts";
import { markTracesChanged } from "../../insight/dashboard/rollups/rollups.queries.ts";

/**
 * Removes the traces and everything small that hangs from them, in the caller's transaction: verdicts (their own
 * and those of their assertions on replay traces), assertions with their versions, grader labels, dataset
 * membership, re-run and experiment items, outbox rows. Their spans and span events are left to the purge job,
 * recorded in trace_purges; with the trace row gone no read reaches them. Returns the ids that were deleted.
 */
export async function deleteTraceRows(db: DbClient, organizationId: string, ids: string[], at: Date): Promise<string[]> {
  const org = sql`${organizationId}::uuid`;
  const traces = uuidArray(ids);
  // The dashboard's rollups of these traces' hours go stale (docs/scaling.md, "Dashboard"): marked while they exist.
  await markTracesChanged(db, organizationId, ids);
  await db.sql.query(sql`
    DELETE FROM trace_labels WHERE organization_id = ${org} AND (trace_id = ANY(${traces}) OR assertion_id IN (
      SELECT a.id FROM assertions a WHERE a.organization_id = ${org} AND a.trace_id = ANY(${traces})))`);
  await db.sql.query(sql`DELETE FROM assertions WHERE organization_id = ${org} AND trace_id = ANY(${traces})`);
  await db.sql.query(sql`DELETE FROM grader_labels WHERE organization_id = ${org} AND trace_id = ANY(${traces})`);
  await db.sql.query(sql`DELETE FROM grader_label_history WHERE organization_id = ${org} AND trace_id = ANY(${traces})`);
  await db.sql.query(sql`DELETE FROM dataset_traces WHERE organization_id = ${org} AND trace_id = ANY(${traces})`);
  await db.sql.query(sql`DELETE FROM grader_rerun_items WHERE organization_id = ${org} AND trace_id = ANY(${traces})`);
  await db.sql.query(sql`DELETE FROM experiment_items WHERE organization_id = ${org} AND original_trace_id = ANY(${traces})`);
  await db.sql.query(sql`DELETE FROM trace_events WHERE organization_id = ${org} AND trace_id = ANY(${traces})`);
  const rows = await db.sql.query<{ id: string }>(sql`
    DELETE FROM traces WHERE organization_id = ${org} AND id = ANY(${traces}) RETURNING id::text AS id`);
  if (rows.length === 0) return [];
  await db.sql.query(sql`
    INSERT INTO trace_purges (organization_id, trace_id, deleted_at)
    SELECT ${org}, u.id, ${at.toISOString()}::timestamptz FROM unnest(${uuidArray(rows.map((r) => r.id))}) AS u(id)
    ON CONFLICT (organization_id, trace_id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at`);
  return rows.map((r) => r.id);
}

/** Ids of at most `take` traces of a session (the SDK's sessionId), any kind. */
export async function selectSessionTraceIds(db: DbClient, organizationId: string, sessionId: string, take: number): Promise<string[]> {
  const rows = await db.sql.query<{ id: string }>(sql`
    SELECT id::text AS id FROM traces WHERE organization_id = ${organizationId}::uuid AND session_id = ${sessionId} LIMIT ${take}`);
  return rows.map((r) => r.id);
}

/** Ids of at most `take` traces whose metadata names the user under `key` (the value compared as text). */
export async function selectUserTraceIds(db: DbClient, organizationId: string, key: string, userId: string, take: number): Promise<string[]> {
  const rows = await db.sql.query<{ id: string }>(sql`
    SELECT id::text AS id FROM traces
    WHERE organization_id = ${organizationId}::uuid AND jsonb_typeof(metadata) = 'object' AND metadata ->> ${key} = ${userId}
    LIMIT ${take}`);
  return rows.map((r) => r.id);
}

/**
 * The organizations with deleted traces whose spans are still to purge: one lock-free read over every shard (Citus
 * refuses a correlated subquery over the organizations reference table); each is then purged on its own.
 */
export async function selectOrganizationsToPurge(db: DbClient): Promise<string[]> {
  const rows = await db.sql.query<{ id: string }>(sql`SELECT DISTINCT organization_id::text AS id FROM trace_purges`);
  return rows.map((r) => r.id);
}

/** The oldest deletions of one organization still to purge. */
export function selectPurges(db: DbClient, organizationId: string, take: number) {
  return db.sql.query<{ traceId: string; deletedAt: Date }>(sql`
    SELECT trace_id::text AS "traceId", deleted_at AS "deletedAt" FROM trace_purges
    WHERE organization_id = ${organizationId}::uuid ORDER BY deleted_at, trace_id LIMIT ${take}`);
}

/**
 * Deletes at most `take` spans of the given deleted traces that were stored before their deletion (a span that
 * arrived later started its trace afresh and stays), in one short statement. Returns how many it deleted.
 */
export async function deleteSpanBatch(db: DbClient, organizationId: string, traceIds: string[], take: number): Promise<number> {
  const org = sql`${organizationId}::uuid`;
  const rows = await db.sql.query<{ n: number }>(sql`
    WITH gone AS (
      DELETE FROM spans WHERE organization_id = ${org} AND id IN (
        SELECT s.id FROM spans s JOIN trace_purges p ON p.organization_id = s.organization_id AND p.trace_id = s.trace_id
        WHERE s.organization_id = ${org} AND p.organization_id = ${org} AND s.trace_id = ANY(${uuidArray(traceIds)}) AND s.created_at <= p.deleted_at
        LIMIT ${take})
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`);
  return rows[0]?.n ?? 0;
}

/** Deletes at most `take` OpenTelemetry span events of the given deleted traces stored before their deletion. */
export async function deleteSpanEventBatch(db: DbClient, organizationId: string, traceIds: string[], take: number): Promise<number> {
  const org = sql`${organizationId}::uuid`;
  const rows = await db.sql.query<{ n: number }>(sql`
    WITH gone AS (
      DELETE FROM otel_span_events WHERE organization_id = ${org} AND (span_id, event_key) IN (
        SELECT e.span_id, e.event_key FROM otel_span_events e JOIN trace_purges p ON p.organization_id = e.organization_id AND p.trace_id = e.trace_id
        WHERE e.organization_id = ${org} AND p.organization_id = ${org} AND e.trace_id = ANY(${uuidArray(traceIds)}) AND e.created_at <= p.deleted_at
        LIMIT ${take})
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`);
  return rows[0]?.n ?? 0;
}

/** Ends the purges read at `read`: a trace deleted again since (a later deletedAt) stays to purge. */
export async function deletePurges(db: DbClient, organizationId: string, read: Array<{ traceId: string; deletedAt: Date }>): Promise<void> {
  const ats = read.map((p) => new Date(p.deletedAt).toISOString());
  await db.sql.query(sql`
    DELETE FROM trace_purges p USING unnest(${uuidArray(read.map((r) => r.traceId))}, string_to_array(${ats.join(",")}, ',')::timestamptz[]) AS r(trace_id, deleted_at)
    WHERE p.organization_id = ${organizationId}::uuid AND p.trace_id = r.trace_id AND p.deleted_at <= r.deleted_at`);
}

/** How many deleted traces still wait for their spans to be purged (tests and the bench wait on it). */
export async function countPurges(db: DbClient, organizationId: string): Promise<number> {
  const rows = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM trace_purges WHERE organization_id = ${organizationId}::uuid`);
  return rows[0]?.n ?? 0;
}
