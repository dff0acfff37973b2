// The only database access of the retention sweep and of pins (docs/operations.md, "Retention"). Every statement
// names one organization: the sweep works one organization at a time and never locks another's rows.
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";

/**
 * Ids of at most `take` traces received before `cutoff` that the sweep may remove: not pinned by a person and in
 * no dataset. Oldest first, by the (organization_id, created_at) index.
 */
export async function selectExpiredTraceIds(db: DbClient, organizationId: string, cutoff: Date, take: number): Promise<string[]> {
  const rows = await db.sql.query<{ id: string }>(sql`
    SELECT t.id::text AS id FROM traces t
    WHERE t.organization_id = ${organizationId}::uuid AND t.created_at < ${cutoff.toISOString()}::timestamptz AND t.pinned_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM dataset_traces d WHERE d.organization_id = t.organization_id AND d.trace_id = t.id)
    ORDER BY t.created_at
    LIMIT ${take}`);
  return rows.map((r) => r.id);
}

/** Pins or unpins a trace; null when it is not the organization's. */
export async function updatePin(db: DbClient, organizationId: string, traceId: string, pin: { at: Date; userId: string } | null) {
  const rows = await db.sql.query<{ pinnedAt: Date | null; pinnedByUserId: string | null }>(sql`
    UPDATE traces SET pinned_at = ${pin ? pin.at.toISOString() : null}::timestamptz, pinned_by_user_id = ${pin ? pin.userId : null}::uuid
    WHERE organization_id = ${organizationId}::uuid AND id = ${traceId}::uuid
    RETURNING pinned_at AS "pinnedAt", pinned_by_user_id::text AS "pinnedByUserId"`);
  return rows[0] ?? null;
}

export async function selectPin(db: DbClient, organizationId: string, traceId: string) {
  const rows = await db.sql.query<{ pinnedAt: Date | null; pinnedByUserId: string | null }>(sql`
    SELECT pinned_at AS "pinnedAt", pinned_by_user_id::text AS "pinnedByUserId" FROM traces
    WHERE organization_id = ${organizationId}::uuid AND id = ${traceId}::uuid`);
  return rows[0] ?? null;
}
