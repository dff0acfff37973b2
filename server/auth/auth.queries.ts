// The only place the auth feature touches the database.
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";

/**
 * Every /api/sdk/* request resolves its key here, so these two go through the driver: Prisma's query
 * layer cost ~1 ms of CPU per request, a twentieth of an ingestion request's whole budget.
 */
export async function findActiveApiKeyByHash(db: DbClient, keyHash: string) {
  const [row] = await db.sql.query<{
    id: string;
    organizationId: string;
    userId: string;
    lastUsedAt: Date | string | null;
    scope: string;
    expiresAt: Date | string | null;
    role: string;
  }>(
    sql`SELECT k.id, k.organization_id AS "organizationId", k.user_id AS "userId", k.last_used_at AS "lastUsedAt",
               k.scope, k.expires_at AS "expiresAt", u.role
        FROM api_keys k JOIN users u ON u.id = k.user_id AND u.organization_id = k.organization_id
        WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL LIMIT 1`,
    { prepareAs: "reprise_auth_find_api_key_role" },
  );
  if (!row) return undefined;
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return { ...row, lastUsedAt: date(row.lastUsedAt), expiresAt: date(row.expiresAt) };
}

export async function touchApiKey(db: DbClient, id: string, at: Date): Promise<void> {
  await db.sql.query(sql`UPDATE api_keys SET last_used_at = ${at.toISOString()}::timestamptz WHERE id = ${id}::uuid`);
}

export const findUserByEmail = (db: DbClient, email: string) =>
  db.prisma.user.findUnique({ where: { email }, select: { id: true, organizationId: true, passwordHash: true, role: true } });

export const findApiKeyByHash = (db: DbClient, keyHash: string) =>
  db.prisma.apiKey.findUnique({ where: { keyHash }, select: { id: true, userId: true, revokedAt: true } });

export const countOrganizations = (db: DbClient) => db.prisma.organization.count();

export const insertOrganization = (db: DbClient, row: { id: string; name: string }) =>
  db.prisma.organization.create({ data: row, select: { id: true } });

export const insertUser = (db: DbClient, row: { id: string; organizationId: string; email: string; passwordHash: string; role: string }) =>
  db.prisma.user.create({ data: row, select: { id: true } });

export const insertApiKey = (
  db: DbClient,
  row: { id: string; organizationId: string; userId: string; name: string; prefix: string; keyHash: string; scope: string; expiresAt?: Date | null },
) =>
  db.prisma.apiKey.create({ data: row, select: { id: true } });
