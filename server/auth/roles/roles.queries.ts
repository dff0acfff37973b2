// The only place role changes touch the database. Every query filters by organization.
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";

export const findMember = (db: DbClient, organizationId: string, userId: string) =>
  db.prisma.user.findFirst({ where: { organizationId, id: userId }, select: { id: true, email: true, role: true, organizationId: true, removedAt: true } });

export const findUserByEmail = (db: DbClient, email: string) =>
  db.prisma.user.findUnique({ where: { email }, select: { id: true, email: true, role: true, organizationId: true, removedAt: true } });

/**
 * The organization's owners, locked for the rest of the transaction: two owners demoting each other at once
 * take turns, so the second sees that only one owner is left.
 */
export async function lockOwners(db: DbClient, organizationId: string): Promise<string[]> {
  const rows = await db.sql.query<{ id: string }>(
    sql`SELECT id FROM users WHERE organization_id = ${organizationId}::uuid AND role = 'owner' AND removed_at IS NULL ORDER BY id FOR UPDATE`,
  );
  return rows.map((r) => r.id);
}

export const updateRole = (db: DbClient, organizationId: string, userId: string, role: string) =>
  db.prisma.user.updateMany({ where: { organizationId, id: userId }, data: { role } });
