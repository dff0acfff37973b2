// Changing one's own password (the current one required; every other session ends) and an admin's one-time reset link
// for someone else (docs/operations.md, "People and invitations").
import type { Database, DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { hashPassword, verifyPassword } from "../passwords.ts";
import { requireUserManager } from "./actor.ts";
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
    return (await q.deleteSessionsOfUser(tx, actor.userId, keepSessionId)).count;
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
    return q.insertPasswordReset(tx, {
      organizationId: actor.organizationId,
      id: newId(),
      userId,
      tokenHash: hashLinkToken(token),
      createdByUserId: actor.userId,
      expiresAt: new Date(now.getTime() + RESET_TTL_MS),
    });
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
    return { email: user.email, reset: true };
  });
}
