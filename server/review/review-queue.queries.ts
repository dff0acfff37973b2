// The review queue's read: pending active assertions of the organization, oldest first, filtered by the
// trace's function, the category and the assignee. Raw SQL for the join with traces. Every query filters by
// organization.
import type { DbClient } from "../db/client.ts";
import { join, sql, type Sql } from "../db/sql.ts";

export interface ReviewQueueFilter {
  traceFunctionKey?: string;
  categoryId?: string;
  /** A user id; null = unassigned. */
  assigneeUserId?: string | null;
}

export function selectPendingAssertionIds(db: DbClient, organizationId: string, f: ReviewQueueFilter, take: number) {
  const where: Sql[] = [sql`a.organization_id = ${organizationId}::uuid`, sql`a.archived_at IS NULL`, sql`a.approval_state = 'pending'`, sql`NOT t.dropped`];
  if (f.traceFunctionKey !== undefined) where.push(sql`t.trace_function_key = ${f.traceFunctionKey}`);
  if (f.categoryId !== undefined) where.push(sql`a.category_assertion_id = ${f.categoryId}`);
  if (f.assigneeUserId === null) where.push(sql`a.assignee_user_id IS NULL`);
  else if (f.assigneeUserId !== undefined) where.push(sql`a.assignee_user_id = ${f.assigneeUserId}::uuid`);
  return db.sql.query<{ id: string }>(sql`
    SELECT a.id::text AS id FROM assertions a
    JOIN traces t ON t.organization_id = a.organization_id AND t.id = a.trace_id
    WHERE ${join(where, " AND ")}
    ORDER BY a.created_at ASC, a.id ASC
    LIMIT ${take}`);
}

export function selectTraceFunctionKeysWithPending(db: DbClient, organizationId: string) {
  return db.sql.query<{ key: string }>(sql`
    SELECT DISTINCT t.trace_function_key AS key FROM assertions a
    JOIN traces t ON t.organization_id = a.organization_id AND t.id = a.trace_id
    WHERE a.organization_id = ${organizationId}::uuid AND a.archived_at IS NULL AND a.approval_state = 'pending' AND t.trace_function_key IS NOT NULL
    ORDER BY 1`);
}
