// Settings: the organization's API keys and users.
import type { DbClient } from "../../db/client.ts";
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

export async function findApiKeys(db: DbClient, organizationId: string) {
  const rows = await q.findApiKeysOfOrganization(db, organizationId);
  return rows.map(({ user, ...key }) => ({ ...key, ownerEmail: user.email }));
}

const DAY_MS = 24 * 60 * 60_000;

/** A new key for the signed-in user; the key itself is returned this once and never stored. */
export async function createApiKey(db: DbClient, actor: Actor, input: TCreateApiKeyInput, now = new Date()) {
  const expiresAt = input.expiresInDays === undefined ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS);
  const { apiKey, id } = await createApiKeyForUser(db, actor, { name: input.name, scope: input.scope, expiresAt });
  return { id, apiKey, scope: input.scope, expiresAt };
}

/** Revokes a key of the organization; revoking twice is fine, another organization's key is a 404. */
export async function revokeApiKey(db: DbClient, organizationId: string, id: string) {
  const key = await q.findApiKeyInOrganization(db, organizationId, id);
  if (!key) throw notFound("API key");
  await q.markApiKeyRevoked(db, organizationId, id, new Date());
  return { id, revoked: true };
}

export const findUsers = (db: DbClient, organizationId: string) => q.findUsersOfOrganization(db, organizationId);

/** Adds a user who signs in with this password. Emails are unique across the whole service; only an owner adds an owner. */
export async function createUser(db: DbClient, actor: Actor & { role: TRole }, input: TCreateUserInput) {
  const { organizationId } = actor;
  if (input.role === "owner") assertAllowed({ role: actor.role, scope: null }, "manage-owners");
  if (await q.findUserIdByEmail(db, input.email)) {
    throw new AppError("conflict", `A user with email ${input.email} already exists.`);
  }
  const passwordHash = await hashPassword(input.password);
  try {
    return await q.insertUser(db, { id: newId(), organizationId, email: input.email, name: input.name || null, passwordHash, role: input.role });
  } catch (error) {
    // Two admins adding the same email at once: the unique index decides.
    if ((error as { code?: string }).code === "P2002") throw new AppError("conflict", `A user with email ${input.email} already exists.`);
    throw error;
  }
}
