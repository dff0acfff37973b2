// The only place the auth feature touches the database.
import type { Prisma } from "../db/client.ts";
import { sql, type SqlClient } from "../db/sql.ts";

type Db = Pick<Prisma, "apiKey" | "user" | "organization">;

/**
 * Every /api/sdk/* request resolves its key here, so these two go through the driver: Prisma's query
 * layer cost ~1 ms of CPU per request, a twentieth of an ingestion request's whole budget.
 */
export async function findActiveApiKeyByHash(db: SqlClient, keyHash: string) {
  const [row] = await db.query<{ id: string; organizationId: string; userId: string; lastUsedAt: Date | string | null }>(
    sql`SELECT id, organization_id AS "organizationId", user_id AS "userId", last_used_at AS "lastUsedAt"
        FROM api_keys WHERE key_hash = ${keyHash} AND revoked_at IS NULL LIMIT 1`,
    { prepareAs: "reprise_auth_find_api_key" },
  );
  return row ? { ...row, lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt) } : undefined;
}

export async function touchApiKey(db: SqlClient, id: string, at: Date): Promise<void> {
  await db.query(sql`UPDATE api_keys SET last_used_at = ${at.toISOString()}::timestamptz WHERE id = ${id}::uuid`);
}

export const findUserByEmail = (db: Db, email: string) =>
  db.user.findUnique({ where: { email }, select: { id: true, organizationId: true, passwordHash: true } });

export const findApiKeyByHash = (db: Db, keyHash: string) =>
  db.apiKey.findUnique({ where: { keyHash }, select: { id: true, userId: true, revokedAt: true } });

export const countOrganizations = (db: Db) => db.organization.count();
