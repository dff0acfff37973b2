// Console sessions: email + password sign-in, an opaque random token in a cookie,
// only its sha256 stored, an absolute expiry and an idle one (docs/operations.md, "Sessions"), failed attempts
// rate-limited.
import type { DbClient } from "../../db/client.ts";
import { createHash, randomBytes } from "node:crypto";
import { getEnv } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { hashPassword, verifyPassword } from "../passwords.ts";
import { isRole } from "../permissions.ts";
import * as q from "./sessions.queries.ts";
import type { TSessionUser, TSignInInput } from "./sessions.schemas.ts";
import type { SignInLimiter } from "./sign-in-limiter.ts";
import { getPasswordCheckBudget, type PasswordCheckBudget } from "./password-budget.ts";

export const SESSION_TTL_MS = 14 * 24 * 60 * 60_000;
/** Only write last_seen_at when older than this, so reads do not become writes on every request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export const hashSessionToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A hash to verify against when the email is unknown, so both failures take the same time. */
let dummyHash: Promise<string> | undefined;

/** What the list of sessions shows about the browser that opened one. */
export interface TSessionClient {
  ip?: string;
  userAgent?: string;
}

export interface SignInResult {
  token: string;
  expiresAt: Date;
  userId: string;
}

/**
 * Checks the password within the global budget and opens a session; a wrong email or password is one 401,
 * too many failures or too many checks at once a 429.
 */
export async function signIn(
  db: DbClient,
  limiter: SignInLimiter,
  input: TSignInInput,
  ip: string,
  budget: PasswordCheckBudget = getPasswordCheckBudget(),
  client: TSessionClient = {},
): Promise<SignInResult> {
  const wait = limiter.admit(input.email, ip);
  if (wait > 0) {
    const when = wait < 60 ? `${wait} second(s)` : `${Math.ceil(wait / 60)} minute(s)`;
    throw new AppError("rate_limited", `Too many failed sign-ins. Try again in ${when}.`, { retryAfter: wait });
  }
  // The whole check runs within the budget, the user lookup too: a refused attempt costs no query.
  const { user, ok } = await budget.run(async () => {
    const found = await q.findUserForSignIn(db, input.email);
    dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
    return { user: found, ok: await verifyPassword(input.password, found?.passwordHash ?? (await dummyHash)) };
  });
  if (!user || !ok || user.removedAt) {
    limiter.recordFailure(input.email, ip);
    throw new AppError("unauthorized", "Wrong email or password.");
  }
  limiter.recordSuccess(input.email, ip);
  if (user.organization.ssoConnection?.enabled && !user.organization.ssoConnection.passwordSignIn) {
    throw new AppError("forbidden", "This organization signs in with single sign-on: use \"Continue with SSO\".");
  }
  return openSession(db, user.id, { ip, ...client }, "password");
}

/** Opens a console session for a user who proved who they are (a password, or the organization's provider). */
export async function openSession(db: DbClient, userId: string, client: TSessionClient, method: "password" | "sso"): Promise<SignInResult> {
  const now = new Date();
  await q.deleteExpiredSessionsOfUser(db, userId, now, new Date(now.getTime() - idleTimeoutMs()));
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await q.insertSession(db, {
    id: newId(),
    userId,
    tokenHash: hashSessionToken(token),
    expiresAt,
    ip: (client.ip ?? "").slice(0, 100),
    userAgent: (client.userAgent ?? "").slice(0, 300),
    method,
  });
  return { token, expiresAt, userId };
}

/** How long a session may go unused (REPRISE_SESSION_IDLE_MINUTES). */
export const idleTimeoutMs = () => getEnv().REPRISE_SESSION_IDLE_MINUTES * 60_000;

/** The signed-in user for a cookie token, or null when the token is missing, unknown or expired. */
export async function getSessionUser(db: DbClient, token: string | null, now = new Date()): Promise<TSessionUser | null> {
  if (!token) return null;
  const row = await q.findLiveSessionByTokenHash(db, hashSessionToken(token), now);
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > idleTimeoutMs()) {
    // Unused for too long: it ends now, whatever its absolute expiry says.
    await q.deleteSessionById(db, row.id).catch(() => undefined);
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await q.touchSession(db, row.id, now).catch(() => undefined);
  }
  return {
    sessionId: row.id,
    userId: row.user.id,
    organizationId: row.user.organizationId,
    email: row.user.email,
    name: row.user.name,
    organizationName: row.user.organization.name,
    role: isRole(row.user.role) ? row.user.role : "viewer",
  };
}

/** Ends the session of this token (a no-op when there is none). */
export async function signOut(db: DbClient, token: string | null): Promise<void> {
  if (token) await q.deleteSessionByTokenHash(db, hashSessionToken(token));
}
