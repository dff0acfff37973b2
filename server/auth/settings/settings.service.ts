// Settings: the organization's API keys and users.
import type { DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { createApiKeyForUser } from "../auth.service.ts";
import { hashPassword } from "../passwords.ts";
import { requireUserManager } from "../people/actor.ts";
import * as q from "./settings.queries.ts";
import type { TCreateUserInput } from "./settings.schemas.ts";

interface Actor {
  organizationId: string;
  userId: string;
}

export async function findApiKeys(db: DbClient, organizationId: string) {
  const rows = await q.findApiKeysOfOrganization(db, organizationId);
  return rows.map(({ user, ...key }) => ({ ...key, ownerEmail: user.email }));
}

/** A new key for the signed-in user; the key itself is returned this once and never stored. */
export async function createApiKey(db: DbClient, actor: Actor, name: string) {
  const { apiKey, id } = await createApiKeyForUser(db, actor, name);
  return { id, apiKey };
}

/** Revokes a key of the organization; revoking twice is fine, another organization's key is a 404. */
export async function revokeApiKey(db: DbClient, organizationId: string, id: string) {
  const key = await q.findApiKeyInOrganization(db, organizationId, id);
  if (!key) throw notFound("API key");
  await q.markApiKeyRevoked(db, organizationId, id, new Date());
  return { id, revoked: true };
}

export const findUsers = (db: DbClient, organizationId: string) => q.findUsersOfOrganization(db, organizationId);

/**
 * Adds a user who signs in with this password, as a member. Emails are unique across the whole service. Only those who
 * manage people may (docs/operations.md, "People and invitations").
 */
export async function createUser(db: DbClient, actor: Actor, input: TCreateUserInput) {
  const { organizationId } = actor;
  await requireUserManager(db, actor);
  if (await q.findUserIdByEmail(db, input.email)) {
    throw new AppError("conflict", `A user with email ${input.email} already exists.`);
  }
  const passwordHash = await hashPassword(input.password);
  try {
    return await q.insertUser(db, { id: newId(), organizationId, email: input.email, name: input.name || null, passwordHash });
  } catch (error) {
    // Two admins adding the same email at once: the unique index decides.
    if ((error as { code?: string }).code === "P2002") throw new AppError("conflict", `A user with email ${input.email} already exists.`);
    throw error;
  }
}
