// Experiment groups: the only database access of groups. Every query filters by organization; a group id
// is made by the client (at replay start) or the server, so a foreign one reads as absent.
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";

const groupSelect = { id: true, organizationId: true, name: true, notes: true, graderIds: true, createdAt: true, updatedAt: true } as const;

export function selectGroup(db: DbClient, organizationId: string, id: string) {
  return db.prisma.experimentGroup.findFirst({ where: { organizationId, id }, select: groupSelect });
}
export type TGroupRow = NonNullable<Awaited<ReturnType<typeof selectGroup>>>;

/**
 * Creates the group unless the id exists; returns the organization that owns the id. Groups are keyed by
 * (organization, id), so an id another organization holds is looked up first (the only query of groups across
 * organizations, at replay start with a client-made id) and the caller treats it as foreign.
 */
export async function ensureGroup(db: DbClient, organizationId: string, id: string, fields: { name?: string | null; notes?: string | null } = {}) {
  const [owner] = await db.sql.query<{ organizationId: string }>(sql`
    SELECT organization_id::text AS "organizationId" FROM experiment_groups WHERE id = ${id}::uuid
    ORDER BY organization_id = ${organizationId}::uuid DESC LIMIT 1`);
  if (owner) return owner.organizationId;
  await db.sql.query(sql`INSERT INTO experiment_groups (id, organization_id, name, notes)
    VALUES (${id}::uuid, ${organizationId}::uuid, ${fields.name ?? null}, ${fields.notes ?? null}) ON CONFLICT (organization_id, id) DO NOTHING`);
  return organizationId;
}

export async function updateGroup(db: DbClient, organizationId: string, id: string, data: { name?: string | null; notes?: string | null; graderIds?: string[] }) {
  const res = await db.prisma.experimentGroup.updateMany({ where: { organizationId, id }, data: { ...data, updatedAt: new Date() } });
  return res.count > 0;
}

export function selectGroups(db: DbClient, organizationId: string, limit: number) {
  return db.prisma.experimentGroup.findMany({ where: { organizationId }, select: groupSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
}
