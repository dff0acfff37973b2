// Settings: the organization's API keys and users.
import type { Database, DbClient } from "../../db/client.ts";
import { recordAuditEvents } from "../audit/audit.service.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { createApiKeyForUser } from "../auth.service.ts";
import { hashPassword } from "../passwords.ts";
import * as q from "./settings.queries.ts";
import type { TCreateApiKeyInput, TCreateUserInput } from "./settings.schemas.ts";
import { assertAllowed, type TRole } from "../permissions.ts";

interface Actor {
  organizationId: string;
  userId: string;
}

/** Settings change only from the console: the audit log names the signed-in user. */
const viaConsole = (actor: Actor) => ({ userId: actor.userId, via: "console" as const });

export async function findApiKeys(db: DbClient, organizationId: string) {
  const rows = await q.findApiKeysOfOrganization(db, organizationId);
  return rows.map(({ user, ...key }) => ({ ...key, ownerEmail: user.email }));
}

const DAY_MS = 24 * 60 * 60_000;

/** A new key for the signed-in user; the key itself is returned this once and never stored. */
export async function createApiKey(db: Database, actor: Actor, input: TCreateApiKeyInput, now = new Date()) {
  const expiresAt = input.expiresInDays === undefined ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS);
  return db.transaction(async (tx) => {
    const { apiKey, id } = await createApiKeyForUser(tx, actor, { name: input.name, scope: input.scope, expiresAt });
    await recordAuditEvents(tx, actor.organizationId, viaConsole(actor), [
      { kind: "api-key.created", targetType: "api-key", targetId: id, before: null, after: { name: input.name, scope: input.scope, expiresAt, userId: actor.userId } },
    ]);
    return { id, apiKey, scope: input.scope, expiresAt };
  });
}

/** Revokes a key of the organization; revoking twice is fine, another organization's key is a 404. */
export async function revokeApiKey(db: Database, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const key = await q.findApiKeyInOrganization(tx, actor.organizationId, id);
    if (!key) throw notFound("API key");
    if (key.revokedAt) return { id, revoked: true };
    const at = new Date();
    await q.markApiKeyRevoked(tx, actor.organizationId, id, at);
    await recordAuditEvents(tx, actor.organizationId, viaConsole(actor), [
      { kind: "api-key.revoked", targetType: "api-key", targetId: id, before: { revokedAt: null }, after: { revokedAt: at } },
    ]);
    return { id, revoked: true };
  });
}

export const findUsers = (db: DbClient, organizationId: string) => q.findUsersOfOrganization(db, organizationId);

/** Adds a user who signs in with this password. Emails are unique across the whole service; only an owner adds an owner. */
export async function createUser(db: Database, actor: Actor & { role: TRole }, input: TCreateUserInput) {
  const { organizationId } = actor;
  if (input.role === "owner") assertAllowed({ role: actor.role, scope: null }, "manage-owners");
  if (await q.findUserIdByEmail(db, input.email)) {
    throw new AppError("conflict", `A user with email ${input.email} already exists.`);
  }
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const user = await q.insertUser(tx, { id: newId(), organizationId, email: input.email, name: input.name || null, passwordHash, role: input.role });
      await recordAuditEvents(tx, organizationId, viaConsole(actor), [
        { kind: "user.created", targetType: "user", targetId: user.id, before: null, after: { email: user.email, name: user.name, role: user.role } },
      ]);
      return user;
    });
  } catch (error) {
    // Two admins adding the same email at once: the unique index decides.
    if ((error as { code?: string }).code === "P2002") throw new AppError("conflict", `A user with email ${input.email} already exists.`);
    throw error;
  }
}
