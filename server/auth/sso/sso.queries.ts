// The only place single sign-on touches the database.
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";

const connectionSelect = {
  organizationId: true,
  issuer: true,
  clientId: true,
  clientSecret: true,
  enabled: true,
  jitDomains: true,
  jitRole: true,
  passwordSignIn: true,
  updatedAt: true,
  updatedByUserId: true,
} as const;

export const findConnection = (db: DbClient, organizationId: string) =>
  db.prisma.ssoConnection.findUnique({ where: { organizationId }, select: connectionSelect });

export const upsertConnection = (
  db: DbClient,
  row: { organizationId: string; issuer: string; clientId: string; clientSecret?: string; enabled: boolean; jitDomains: string[]; jitRole: string; passwordSignIn: boolean; updatedByUserId: string },
) => {
  const { organizationId, clientSecret, ...rest } = row;
  const data = { ...rest, updatedAt: new Date() };
  return db.prisma.ssoConnection.upsert({
    where: { organizationId },
    create: { organizationId, clientSecret: clientSecret ?? "", ...data },
    update: { ...data, ...(clientSecret !== undefined ? { clientSecret } : {}) },
    select: connectionSelect,
  });
};

/** The organizations whose enabled provider admits new people of this e-mail domain. */
export const findConnectionsAdmittingDomain = (db: DbClient, domain: string) =>
  db.prisma.ssoConnection.findMany({ where: { enabled: true, jitDomains: { has: domain } }, select: { organizationId: true }, take: 2 });

export const findUserByEmail = (db: DbClient, email: string) =>
  db.prisma.user.findUnique({ where: { email }, select: { id: true, organizationId: true, removedAt: true } });

export const insertUser = (db: DbClient, row: { id: string; organizationId: string; email: string; name: string | null; passwordHash: string; role: string }) =>
  db.prisma.user.create({ data: row, select: { id: true } });

export const insertLogin = (db: DbClient, row: { organizationId: string; id: string; stateHash: string; nonce: string; codeVerifier: string; expiresAt: Date }) =>
  db.prisma.ssoLogin.create({ data: row, select: { id: true } });

/** Takes the sign-in in flight once: the row is deleted by the first callback that carries its state. */
export const takeLogin = (db: DbClient, organizationId: string, stateHash: string) =>
  db.prisma.ssoLogin.delete({ where: { organizationId_stateHash: { organizationId, stateHash } }, select: { nonce: true, codeVerifier: true, expiresAt: true } }).catch((error: { code?: string }) => {
    if (error.code === "P2025") return null;
    throw error;
  });

export const deleteExpiredLogins = (db: DbClient, organizationId: string, now: Date) =>
  db.prisma.ssoLogin.deleteMany({ where: { organizationId, expiresAt: { lte: now } } });

// ─── Versions ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** Serializes one organization's changes of its settings, so versions are numbered without gaps or clashes. */
export async function lockSsoOfOrganization(db: DbClient, organizationId: string): Promise<void> {
  await db.sql.query(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`sso:${organizationId}`}, 0))::text`);
}

export const findLatestVersionNumber = async (db: DbClient, organizationId: string) =>
  (await db.prisma.ssoConnectionVersion.findFirst({ where: { organizationId }, select: { version: true }, orderBy: { version: "desc" } }))?.version ?? 0;

export const insertVersion = (
  db: DbClient,
  row: { organizationId: string; version: number; issuer: string; clientId: string; clientSecret: string; enabled: boolean; jitDomains: string[]; jitRole: string; passwordSignIn: boolean; savedByUserId: string },
) => db.prisma.ssoConnectionVersion.create({ data: row, select: { version: true } });

export const findVersions = (db: DbClient, organizationId: string) =>
  db.prisma.ssoConnectionVersion.findMany({
    where: { organizationId },
    select: { version: true, issuer: true, clientId: true, clientSecret: true, enabled: true, jitDomains: true, jitRole: true, passwordSignIn: true, savedAt: true, savedByUserId: true },
    orderBy: { version: "desc" },
    take: 100,
  });

export const findVersion = (db: DbClient, organizationId: string, version: number) =>
  db.prisma.ssoConnectionVersion.findUnique({ where: { organizationId_version: { organizationId, version } } });

export const findUserEmails = (db: DbClient, organizationId: string, ids: string[]) =>
  db.prisma.user.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, email: true } });
