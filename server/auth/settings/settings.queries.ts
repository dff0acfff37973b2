// The only place the settings pages touch the database. Every query filters by organization.
import type { Prisma } from "../../db/client.ts";

type Db = Pick<Prisma, "apiKey" | "user">;

const apiKeySelect = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  user: { select: { email: true } },
} as const;

export const findApiKeysOfOrganization = (db: Db, organizationId: string) =>
  db.apiKey.findMany({ where: { organizationId }, select: apiKeySelect, orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }, { id: "asc" }] });

export const findApiKeyInOrganization = (db: Db, organizationId: string, id: string) =>
  db.apiKey.findFirst({ where: { organizationId, id }, select: { id: true, revokedAt: true } });

export const markApiKeyRevoked = (db: Db, organizationId: string, id: string, at: Date) =>
  db.apiKey.updateMany({ where: { organizationId, id, revokedAt: null }, data: { revokedAt: at } });

export const findUsersOfOrganization = (db: Db, organizationId: string) =>
  db.user.findMany({ where: { organizationId }, select: { id: true, email: true, name: true, createdAt: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

export const findUserIdByEmail = (db: Db, email: string) => db.user.findUnique({ where: { email }, select: { id: true } });

export const insertUser = (db: Db, row: { id: string; organizationId: string; email: string; name: string | null; passwordHash: string }) =>
  db.user.create({ data: row, select: { id: true, email: true, name: true, createdAt: true } });
