// The only place the sessions feature touches the database (console sessions and sign-in lookups).
import type { DbClient } from "../../db/client.ts";

export const findUserForSignIn = (db: DbClient, email: string) =>
  db.prisma.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });

export const insertSession = (db: DbClient, row: { id: string; userId: string; tokenHash: string; expiresAt: Date }) =>
  db.prisma.consoleSession.create({ data: row, select: { id: true } });

export const deleteExpiredSessionsOfUser = (db: DbClient, userId: string, now: Date) =>
  db.prisma.consoleSession.deleteMany({ where: { userId, expiresAt: { lte: now } } });

export const findLiveSessionByTokenHash = (db: DbClient, tokenHash: string, now: Date) =>
  db.prisma.consoleSession.findFirst({
    where: { tokenHash, expiresAt: { gt: now } },
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
