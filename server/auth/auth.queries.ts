// The only place the auth feature touches the database.
import type { Prisma } from "../db/client.ts";

type Db = Pick<Prisma, "apiKey" | "user" | "organization">;

export const findActiveApiKeyByHash = (db: Db, keyHash: string) =>
  db.apiKey.findFirst({
    where: { keyHash, revokedAt: null },
    select: { id: true, organizationId: true, userId: true, lastUsedAt: true },
  });

export const touchApiKey = (db: Db, id: string, at: Date) =>
  db.apiKey.update({ where: { id }, data: { lastUsedAt: at }, select: { id: true } });

export const findUserByEmail = (db: Db, email: string) =>
  db.user.findUnique({ where: { email }, select: { id: true, organizationId: true, passwordHash: true } });

export const findApiKeyByHash = (db: Db, keyHash: string) =>
  db.apiKey.findUnique({ where: { keyHash }, select: { id: true, userId: true, revokedAt: true } });

export const countOrganizations = (db: Db) => db.organization.count();
