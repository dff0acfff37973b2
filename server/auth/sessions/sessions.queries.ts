// The only place the sessions feature touches the database (console sessions and sign-in lookups).
import type { Prisma } from "../../db/client.ts";

type Db = Pick<Prisma, "consoleSession" | "user">;

export const findUserForSignIn = (db: Db, email: string) =>
  db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });

export const insertSession = (db: Db, row: { id: string; userId: string; tokenHash: string; expiresAt: Date }) =>
  db.consoleSession.create({ data: row, select: { id: true } });

export const deleteExpiredSessionsOfUser = (db: Db, userId: string, now: Date) =>
  db.consoleSession.deleteMany({ where: { userId, expiresAt: { lte: now } } });

export const findLiveSessionByTokenHash = (db: Db, tokenHash: string, now: Date) =>
  db.consoleSession.findFirst({
    where: { tokenHash, expiresAt: { gt: now } },
    select: {
      id: true,
      lastSeenAt: true,
      user: { select: { id: true, email: true, name: true, organizationId: true, organization: { select: { name: true } } } },
    },
  });

export const touchSession = (db: Db, id: string, at: Date) =>
  db.consoleSession.update({ where: { id }, data: { lastSeenAt: at }, select: { id: true } });

export const deleteSessionByTokenHash = (db: Db, tokenHash: string) =>
  db.consoleSession.deleteMany({ where: { tokenHash } });
