// The only place the sessions feature touches the database (console sessions and sign-in lookups).
import type { DbClient } from "../../db/client.ts";

export const findUserForSignIn = (db: DbClient, email: string) =>
  db.prisma.user.findUnique({
    where: { email },
    select: { id: true, passwordHash: true, removedAt: true, organization: { select: { ssoConnection: { select: { enabled: true, passwordSignIn: true } } } } },
  });

export const insertSession = (
  db: DbClient,
  row: { id: string; userId: string; tokenHash: string; expiresAt: Date; ip: string; userAgent: string; method: string },
) => db.prisma.consoleSession.create({ data: row, select: { id: true } });

/** Clears the user's sessions past their expiry or unused since `idleSince`. */
export const deleteExpiredSessionsOfUser = (db: DbClient, userId: string, now: Date, idleSince: Date) =>
  db.prisma.consoleSession.deleteMany({ where: { userId, OR: [{ expiresAt: { lte: now } }, { lastSeenAt: { lt: idleSince } }] } });

export const deleteSessionById = (db: DbClient, id: string) => db.prisma.consoleSession.deleteMany({ where: { id } });

export const findLiveSessionByTokenHash = (db: DbClient, tokenHash: string, now: Date) =>
  db.prisma.consoleSession.findFirst({
    where: { tokenHash, expiresAt: { gt: now }, user: { removedAt: null } },
    select: {
      id: true,
      lastSeenAt: true,
      user: { select: { id: true, email: true, name: true, role: true, organizationId: true, organization: { select: { name: true } } } },
    },
  });

export const touchSession = (db: DbClient, id: string, at: Date) =>
  db.prisma.consoleSession.update({ where: { id }, data: { lastSeenAt: at }, select: { id: true } });

export const deleteSessionByTokenHash = (db: DbClient, tokenHash: string) =>
  db.prisma.consoleSession.deleteMany({ where: { tokenHash } });

const sessionListSelect = { id: true, createdAt: true, lastSeenAt: true, expiresAt: true, ip: true, userAgent: true, method: true } as const;

/** The user's sessions still within their absolute expiry and used since `idleSince`. */
export const findLiveSessionsOfUser = (db: DbClient, userId: string, now: Date, idleSince: Date) =>
  db.prisma.consoleSession.findMany({
    where: { userId, expiresAt: { gt: now }, lastSeenAt: { gte: idleSince } },
    select: sessionListSelect,
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
  });

export const findSessionOfUser = (db: DbClient, userId: string, id: string) =>
  db.prisma.consoleSession.findFirst({ where: { userId, id }, select: { id: true } });

export const deleteSessionsOfUser = (db: DbClient, userId: string, exceptId?: string) =>
  db.prisma.consoleSession.deleteMany({ where: { userId, ...(exceptId ? { id: { not: exceptId } } : {}) } });

export const findUserInOrganization = (db: DbClient, organizationId: string, id: string) =>
  db.prisma.user.findFirst({ where: { organizationId, id }, select: { id: true, role: true } });
