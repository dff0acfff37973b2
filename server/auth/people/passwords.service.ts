// Changing one's own password (the current one required; every other session ends) and an admin's one-time reset link
// for someone else (docs/operations.md, "People and invitations").
import type { Database, DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { hashPassword, verifyPassword } from "../passwords.ts";
import { recordAuditEvents } from "../audit/audit.service.ts";
import { selfActor } from "../audit/actor.ts";
import { auditActorOf, requireUserManager } from "./actor.ts";
import { generateLinkToken, hashLinkToken, passwordResetPath } from "./link-tokens.ts";
import * as q from "./people.queries.ts";
import type { TActor, TChangePasswordInput, TResetPasswordInput } from "./people.schemas.ts";

const RESET_TTL_MS = 24 * 60 * 60_000;

/**
 * Sets a new password after checking the current one. Every other console session of the user ends; the one it was
 * made from (`keepSessionId`) stays.
 */
export async function changeOwnPassword(db: Database, actor: TActor, input: TChangePasswordInput, keepSessionId?: string) {
  const user = await q.findUserInOrganization(db, actor.organizationId, actor.userId);
  if (!user || user.removedAt) throw new AppError("unauthorized", "Your account was removed from this organization.");
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new AppError("forbidden", "The current password is wrong.");
  }
  const passwordHash = await hashPassword(input.newPassword);
  const ended = await db.transaction(async (tx) => {
    await q.updateUserPassword(tx, actor.organizationId, actor.userId, passwordHash, new Date());
    const count = (await q.deleteSessionsOfUser(tx, actor.userId, keepSessionId)).count;
    // Never the password or its hash: that it changed, and how many other sessions it ended.
    await recordAuditEvents(tx, actor.organizationId, auditActorOf(actor), [{
      kind: "user.password_changed", targetType: "user", targetId: actor.userId, before: null, after: { passwordChanged: true, endedSessions: count },
    }]);
    return count;
  });
  return { changed: true, endedSessions: ended };
}

/** A one-time link (24 hours) for another user of the organization to choose a new password; returned this once. */
export async function createPasswordReset(db: Database, actor: TActor, userId: string) {
  const target = await q.findUserInOrganization(db, actor.organizationId, userId);
  if (!target) throw notFound("User");
  await requireUserManager(db, actor, target.role === "owner");
  if (target.removedAt) throw new AppError("conflict", "This user was removed: restore them first.");
  const token = generateLinkToken();
  const now = new Date();
  const row = await db.transaction(async (tx) => {
    await q.expireOpenPasswordResets(tx, actor.organizationId, userId, now);
    const reset = await q.insertPasswordReset(tx, {
      organizationId: actor.organizationId,
      id: newId(),
      userId,
      tokenHash: hashLinkToken(token),
      createdByUserId: actor.userId,
      expiresAt: new Date(now.getTime() + RESET_TTL_MS),
    });
    // Never the link's token: for whom it was issued and until when.
    await recordAuditEvents(tx, actor.organizationId, auditActorOf(actor), [{
      kind: "user.password_reset_issued", targetType: "user", targetId: userId, before: null, after: { email: target.email, expiresAt: reset.expiresAt.toISOString() },
    }]);
    return reset;
  });
  return { userId, expiresAt: row.expiresAt, token, path: passwordResetPath(token) };
}

async function getOpenReset(db: DbClient, token: string) {
  const row = await q.findPasswordResetByTokenHash(db, hashLinkToken(token));
  if (!row) throw notFound("Password reset link");
  if (row.usedAt) throw new AppError("conflict", "This password reset link was already used.");
  if (row.expiresAt <= new Date()) throw new AppError("forbidden", "This password reset link has expired. Ask an admin for a new one.");
  return row;
}

/** What the reset page shows: whose password it sets. */
export async function getPasswordResetByToken(db: DbClient, token: string) {
  const row = await getOpenReset(db, token);
  const user = await q.findUserInOrganization(db, row.organizationId, row.userId);
  if (!user || user.removedAt) throw notFound("User");
  return { email: user.email, expiresAt: row.expiresAt };
}

/** Uses the link once: the password is set and every console session of the user ends. */
export async function resetPassword(db: Database, input: TResetPasswordInput) {
  const row = await getOpenReset(db, input.token);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const now = new Date();
    const taken = await q.markPasswordResetUsed(tx, row.organizationId, row.id, now);
    if (taken.count !== 1) throw new AppError("conflict", "This password reset link was just used or has expired.");
    const user = await q.findUserInOrganization(tx, row.organizationId, row.userId);
    if (!user || user.removedAt) throw notFound("User");
    await q.updateUserPassword(tx, row.organizationId, row.userId, passwordHash, now);
    await q.deleteSessionsOfUser(tx, row.userId);
    await recordAuditEvents(tx, row.organizationId, selfActor(row.userId), [{
      kind: "user.password_reset_used", targetType: "user", targetId: row.userId, before: null, after: { email: user.email, passwordChanged: true },
    }]);
    return { email: user.email, reset: true };
  });
}
