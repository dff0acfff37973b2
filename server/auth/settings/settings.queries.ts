// The only place the settings pages touch the database. Every query filters by organization.
import type { DbClient } from "../../db/client.ts";

const apiKeySelect = {
  id: true,
  name: true,
  prefix: true,
  scope: true,
  expiresAt: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  user: { select: { email: true } },
} as const;

export const findApiKeysOfOrganization = (db: DbClient, organizationId: string) =>
  db.prisma.apiKey.findMany({ where: { organizationId }, select: apiKeySelect, orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }, { id: "asc" }] });

export const findApiKeyInOrganization = (db: DbClient, organizationId: string, id: string) =>
  db.prisma.apiKey.findFirst({ where: { organizationId, id }, select: { id: true, revokedAt: true } });

export const markApiKeyRevoked = (db: DbClient, organizationId: string, id: string, at: Date) =>
  db.prisma.apiKey.updateMany({ where: { organizationId, id, revokedAt: null }, data: { revokedAt: at } });

export const findUsersOfOrganization = (db: DbClient, organizationId: string) =>
  db.prisma.user.findMany({ where: { organizationId }, select: { id: true, email: true, name: true, role: true, createdAt: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

export const findUserIdByEmail = (db: DbClient, email: string) => db.prisma.user.findUnique({ where: { email }, select: { id: true } });

export const insertUser = (db: DbClient, row: { id: string; organizationId: string; email: string; name: string | null; passwordHash: string; role: string }) =>
  db.prisma.user.create({ data: row, select: { id: true, email: true, name: true, role: true, createdAt: true } });
