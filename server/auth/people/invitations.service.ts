// Invitations by link (docs/operations.md, "People and invitations"): an admin invites an e-mail address with a role;
// the link is shown once, expires, works once and can be revoked; accepting it creates the user in the inviter's
// organization.
import type { Database, DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { hashPassword } from "../passwords.ts";
import { recordAuditEvents } from "../audit/audit.service.ts";
import { selfActor } from "../audit/actor.ts";
import { auditActorOf, requireUserManager } from "./actor.ts";
import { generateLinkToken, hashLinkToken, invitationPath } from "./link-tokens.ts";
import * as q from "./people.queries.ts";
import type { TAcceptInvitationInput, TActor, TCreateInvitationInput } from "./people.schemas.ts";

const DAY_MS = 24 * 60 * 60_000;

type InvitationRow = { id: string; email: string; role: string; createdAt: Date; expiresAt: Date; acceptedAt: Date | null; revokedAt: Date | null };

function invitationStatus(row: InvitationRow, now = new Date()): "accepted" | "revoked" | "expired" | "pending" {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

export function toInvitationResponse(row: InvitationRow) {
  const { id, email, role, createdAt, expiresAt, acceptedAt, revokedAt } = row;
  return { id, email, role, createdAt, expiresAt, acceptedAt, revokedAt, status: invitationStatus(row) };
}

/** Creates an invitation; the token (in `path`) is returned this once and never stored. */
export async function createInvitation(db: Database, actor: TActor, input: TCreateInvitationInput) {
  await requireUserManager(db, actor, input.role === "owner");
  const existing = await q.findUserByEmail(db, input.email);
  if (existing) {
    const where = existing.organizationId === actor.organizationId ? (existing.removedAt ? " (removed: restore them instead)" : " in this organization") : "";
    throw new AppError("conflict", `A user with email ${input.email} already exists${where}.`);
  }
  const token = generateLinkToken();
  const row = await db.transaction(async (tx) => {
    const created = await q.insertInvitation(tx, {
      organizationId: actor.organizationId,
      id: newId(),
      email: input.email,
      role: input.role,
      tokenHash: hashLinkToken(token),
      createdByUserId: actor.userId,
      expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS),
    });
    // Never the token: only what the invitation says.
    await recordAuditEvents(tx, actor.organizationId, auditActorOf(actor), [{
      kind: "invitation.created", targetType: "invitation", targetId: created.id, before: null,
      after: { email: created.email, role: created.role, expiresAt: created.expiresAt.toISOString() },
    }]);
    return created;
  });
  return { invitation: toInvitationResponse(row), token, path: invitationPath(token) };
}

export async function findInvitations(db: DbClient, actor: TActor) {
  await requireUserManager(db, actor);
  return (await q.findInvitationsOfOrganization(db, actor.organizationId)).map(toInvitationResponse);
}

/** Revokes an open invitation; revoking twice is fine, one already accepted is a 409. */
export async function revokeInvitation(db: Database, actor: TActor, id: string) {
  const row = await q.findInvitationInOrganization(db, actor.organizationId, id);
  if (!row) throw notFound("Invitation");
  await requireUserManager(db, actor, row.role === "owner");
  if (row.acceptedAt) throw new AppError("conflict", "This invitation was already accepted: remove the user instead.");
  const now = new Date();
  if (!row.revokedAt) {
    await db.transaction(async (tx) => {
      await q.markInvitationRevoked(tx, actor.organizationId, id, actor.userId, now);
      await recordAuditEvents(tx, actor.organizationId, auditActorOf(actor), [{
        kind: "invitation.revoked", targetType: "invitation", targetId: id, before: { email: row.email, role: row.role, status: invitationStatus(row) }, after: { email: row.email, role: row.role, status: "revoked" },
      }]);
    });
  }
  return { invitation: toInvitationResponse({ ...row, revokedAt: row.revokedAt ?? now }) };
}

async function getOpenInvitation(db: DbClient, token: string) {
  const row = await q.findInvitationByTokenHash(db, hashLinkToken(token));
  if (!row) throw notFound("Invitation");
  const status = invitationStatus(row);
  if (status === "accepted") throw new AppError("conflict", "This invitation was already used. Sign in instead.");
  if (status === "revoked") throw new AppError("forbidden", "This invitation was revoked. Ask for a new one.");
  if (status === "expired") throw new AppError("forbidden", "This invitation has expired. Ask for a new one.");
  return row;
}

/** What the invitation page shows before the invitee chooses a password. */
export async function getInvitationByToken(db: DbClient, token: string) {
  const row = await getOpenInvitation(db, token);
  return { email: row.email, role: row.role, organizationName: row.organization.name, expiresAt: row.expiresAt };
}

/** Accepts the invitation once: the user is created with the invited email and role, or nothing changes. */
export async function acceptInvitation(db: Database, input: TAcceptInvitationInput) {
  const row = await getOpenInvitation(db, input.token);
  const passwordHash = await hashPassword(input.password);
  const userId = newId();
  try {
    return await db.transaction(async (tx) => {
      const taken = await q.markInvitationAccepted(tx, row.organizationId, row.id, userId, new Date());
      if (taken.count !== 1) throw new AppError("conflict", "This invitation was just used, revoked or has expired.");
      const user = await q.insertUser(tx, { id: userId, organizationId: row.organizationId, email: row.email, name: input.name || null, passwordHash, role: row.role });
      await recordAuditEvents(tx, row.organizationId, selfActor(user.id), [{
        kind: "invitation.accepted", targetType: "user", targetId: user.id, before: { invitationId: row.id }, after: { email: user.email, role: row.role },
      }]);
      return { userId: user.id, email: user.email, organizationId: row.organizationId };
    });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw new AppError("conflict", `A user with email ${row.email} already exists.`);
    throw error;
  }
}
