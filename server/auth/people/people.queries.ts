// The only place the people feature touches the database. Every query filters by organization, but the lookups of
// a link's token (the link alone says which invitation or reset it is).
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";

const userSelect = { id: true, email: true, name: true, role: true, createdAt: true, removedAt: true } as const;

export const findUserInOrganization = (db: DbClient, organizationId: string, id: string) =>
  db.prisma.user.findFirst({ where: { organizationId, id }, select: { ...userSelect, passwordHash: true } });

export const findUsersOfOrganization = (db: DbClient, organizationId: string) =>
  db.prisma.user.findMany({ where: { organizationId }, select: userSelect, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

export const findUserByEmail = (db: DbClient, email: string) =>
  db.prisma.user.findUnique({ where: { email }, select: { id: true, organizationId: true, removedAt: true } });

/** Serializes the changes to one organization's people, so two removals cannot both pass the last-owner check. */
export async function lockPeopleOfOrganization(db: DbClient, organizationId: string): Promise<void> {
  await db.sql.query(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`people:${organizationId}`}, 0))::text`);
}

export const countActiveOwners = (db: DbClient, organizationId: string) =>
  db.prisma.user.count({ where: { organizationId, role: "owner", removedAt: null } });

export const insertUser = (db: DbClient, row: { id: string; organizationId: string; email: string; name: string | null; passwordHash: string; role: string }) =>
  db.prisma.user.create({ data: row, select: userSelect });

export const markUserRemoved = (db: DbClient, organizationId: string, id: string, by: string, at: Date) =>
  db.prisma.user.updateMany({ where: { organizationId, id, removedAt: null }, data: { removedAt: at, removedByUserId: by } });

export const markUserRestored = (db: DbClient, organizationId: string, id: string) =>
  db.prisma.user.updateMany({ where: { organizationId, id }, data: { removedAt: null, removedByUserId: null } });

export const updateUserRole = (db: DbClient, organizationId: string, id: string, role: string) =>
  db.prisma.user.updateMany({ where: { organizationId, id }, data: { role } });

export const updateUserPassword = (db: DbClient, organizationId: string, id: string, passwordHash: string, at: Date) =>
  db.prisma.user.updateMany({ where: { organizationId, id }, data: { passwordHash, passwordChangedAt: at } });

/** Ends every console session of the user but `keepSessionId` (when given). */
export const deleteSessionsOfUser = (db: DbClient, userId: string, keepSessionId?: string) =>
  db.prisma.consoleSession.deleteMany({ where: { userId, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) } });

export const revokeApiKeysOfUser = (db: DbClient, organizationId: string, userId: string, at: Date) =>
  db.prisma.apiKey.updateMany({ where: { organizationId, userId, revokedAt: null }, data: { revokedAt: at } });

// ─── Invitations ────────────────────────────────────────────────────────────────────────────────────────────────────

const invitationSelect = { id: true, email: true, role: true, createdAt: true, expiresAt: true, acceptedAt: true, revokedAt: true, createdByUserId: true } as const;

export const insertInvitation = (
  db: DbClient,
  row: { organizationId: string; id: string; email: string; role: string; tokenHash: string; createdByUserId: string; expiresAt: Date },
) => db.prisma.invitation.create({ data: row, select: invitationSelect });

export const findInvitationsOfOrganization = (db: DbClient, organizationId: string) =>
  db.prisma.invitation.findMany({ where: { organizationId }, select: invitationSelect, orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: 200 });

export const findInvitationInOrganization = (db: DbClient, organizationId: string, id: string) =>
  db.prisma.invitation.findFirst({ where: { organizationId, id }, select: invitationSelect });

export const findInvitationByTokenHash = (db: DbClient, tokenHash: string) =>
  db.prisma.invitation.findFirst({
    where: { tokenHash },
    select: { ...invitationSelect, organizationId: true, organization: { select: { name: true } } },
  });

export const markInvitationRevoked = (db: DbClient, organizationId: string, id: string, by: string, at: Date) =>
  db.prisma.invitation.updateMany({ where: { organizationId, id, revokedAt: null, acceptedAt: null }, data: { revokedAt: at, revokedByUserId: by } });

/** Takes the invitation once: 1 when it was still open, 0 when it was used, revoked or expired meanwhile. */
export const markInvitationAccepted = (db: DbClient, organizationId: string, id: string, userId: string, at: Date) =>
  db.prisma.invitation.updateMany({
    where: { organizationId, id, acceptedAt: null, revokedAt: null, expiresAt: { gt: at } },
    data: { acceptedAt: at, acceptedUserId: userId },
  });

// ─── Password resets ────────────────────────────────────────────────────────────────────────────────────────────────

export const insertPasswordReset = (
  db: DbClient,
  row: { organizationId: string; id: string; userId: string; tokenHash: string; createdByUserId: string; expiresAt: Date },
) => db.prisma.passwordReset.create({ data: row, select: { id: true, expiresAt: true } });

export const findPasswordResetByTokenHash = (db: DbClient, tokenHash: string) =>
  db.prisma.passwordReset.findFirst({ where: { tokenHash }, select: { id: true, organizationId: true, userId: true, expiresAt: true, usedAt: true } });

export const markPasswordResetUsed = (db: DbClient, organizationId: string, id: string, at: Date) =>
  db.prisma.passwordReset.updateMany({ where: { organizationId, id, usedAt: null, expiresAt: { gt: at } }, data: { usedAt: at } });

/** An earlier link for the same user stops working when a new one is made. */
export const expireOpenPasswordResets = (db: DbClient, organizationId: string, userId: string, at: Date) =>
  db.prisma.passwordReset.updateMany({ where: { organizationId, userId, usedAt: null, expiresAt: { gt: at } }, data: { expiresAt: at } });
