// The only place the auth feature touches the database.
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";

/**
 * Every /api/sdk/* request resolves its key here, so these two go through the driver: Prisma's query
 * layer cost ~1 ms of CPU per request, a twentieth of an ingestion request's whole budget.
 */
export async function findActiveApiKeyByHash(db: DbClient, keyHash: string) {
  const [row] = await db.sql.query<{ id: string; organizationId: string; userId: string; lastUsedAt: Date | string | null }>(
    sql`SELECT id, organization_id AS "organizationId", user_id AS "userId", last_used_at AS "lastUsedAt"
        FROM api_keys WHERE key_hash = ${keyHash} AND revoked_at IS NULL LIMIT 1`,
    { prepareAs: "reprise_auth_find_api_key" },
  );
  return row ? { ...row, lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt) } : undefined;
}

export async function touchApiKey(db: DbClient, id: string, at: Date): Promise<void> {
  await db.sql.query(sql`UPDATE api_keys SET last_used_at = ${at.toISOString()}::timestamptz WHERE id = ${id}::uuid`);
}

export const findUserByEmail = (db: DbClient, email: string) =>
  db.prisma.user.findUnique({ where: { email }, select: { id: true, organizationId: true, passwordHash: true } });

export const findApiKeyByHash = (db: DbClient, keyHash: string) =>
  db.prisma.apiKey.findUnique({ where: { keyHash }, select: { id: true, userId: true, revokedAt: true } });

export const countOrganizations = (db: DbClient) => db.prisma.organization.count();

export const insertOrganization = (db: DbClient, row: { id: string; name: string }) =>
  db.prisma.organization.create({ data: row, select: { id: true } });

export const insertUser = (db: DbClient, row: { id: string; organizationId: string; email: string; passwordHash: string; role: string }) =>
  db.prisma.user.create({ data: row, select: { id: true } });

export const insertApiKey = (db: DbClient, row: { id: string; organizationId: string; userId: string; name: string; prefix: string; keyHash: string }) =>
  db.prisma.apiKey.create({ data: row, select: { id: true } });
