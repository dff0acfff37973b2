// The console's Assertions page read: the organization's most recently written active
// assertions with the trace each belongs to. Raw SQL because assertions carry no Prisma relation to traces
// and the page filters by the trace's function (a join). Every query filters by organization.
import type { DbClient } from "../../db/client.ts";
import { join, sql, type Sql } from "../../db/sql.ts";

export interface RecentAssertionFilter {
  traceFunctionKey?: string;
  /** One review state; undefined lists every state. */
  approvalState?: string;
  /** Keyset position of the last row served: updated_at in epoch microseconds and id. */
  after?: { updatedUs: string; id: string };
}

/** Ids of active assertions, most recently written first (updated_at DESC, id DESC). */
export function selectRecentAssertionIds(db: DbClient, organizationId: string, f: RecentAssertionFilter, take: number) {
  const where: Sql[] = [sql`a.organization_id = ${organizationId}::uuid`, sql`a.archived_at IS NULL`, sql`NOT t.dropped`];
  if (f.traceFunctionKey !== undefined) where.push(sql`t.trace_function_key = ${f.traceFunctionKey}`);
  if (f.approvalState !== undefined) where.push(sql`a.approval_state = ${f.approvalState}`);
  if (f.after) {
    const at = sql`(TIMESTAMPTZ 'epoch' + ${f.after.updatedUs}::bigint * INTERVAL '1 microsecond')`;
    where.push(sql`(a.updated_at < ${at} OR (a.updated_at = ${at} AND a.id < ${f.after.id}::uuid))`);
  }
  return db.sql.query<{ id: string; updated_us: string }>(sql`
    SELECT a.id::text AS id, (EXTRACT(EPOCH FROM a.updated_at) * 1000000)::bigint::text AS updated_us
    FROM assertions a
    JOIN traces t ON t.organization_id = a.organization_id AND t.id = a.trace_id
    WHERE ${join(where, " AND ")}
    ORDER BY a.updated_at DESC, a.id DESC
    LIMIT ${take}`);
}

export function selectAssertionTraces(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.trace.findMany({
    where: { organizationId, id: { in: ids } },
    select: { id: true, name: true, traceFunctionKey: true, startedAt: true, testRunId: true },
  });
}

/** How many active assertions are in each review state (of one trace function), for the state filter. */
export function countAssertionsByState(db: DbClient, organizationId: string, traceFunctionKey: string | undefined) {
  const where: Sql[] = [sql`a.organization_id = ${organizationId}::uuid`, sql`a.archived_at IS NULL`, sql`NOT t.dropped`];
  if (traceFunctionKey !== undefined) where.push(sql`t.trace_function_key = ${traceFunctionKey}`);
  return db.sql.query<{ approval_state: string; n: number }>(sql`
    SELECT a.approval_state, count(*)::int AS n
    FROM assertions a
    JOIN traces t ON t.organization_id = a.organization_id AND t.id = a.trace_id
    WHERE ${join(where, " AND ")}
    GROUP BY a.approval_state`);
}
