// The acting user's role, read from the database on every change (a role taken away takes effect at once).
import type { TAuditActor } from "../audit/audit.schemas.ts";
import type { DbClient } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import * as q from "./people.queries.ts";
import type { TActor } from "./people.schemas.ts";
import { canManageOwners, canManageUsers } from "./roles.ts";

/** Who the audit log records a people change as: the admin CLI, a REST key, or the console user. */
export function auditActorOf(actor: TActor): TAuditActor {
  if (actor.via === "cli") return { userId: actor.userId, via: "cli" };
  return actor.apiKeyId ? { userId: actor.userId, via: "rest", apiKeyId: actor.apiKeyId } : { userId: actor.userId, via: "console" };
}

export async function getActorRole(db: DbClient, actor: TActor): Promise<string> {
  const user = await q.findUserInOrganization(db, actor.organizationId, actor.userId);
  if (!user || user.removedAt) throw new AppError("unauthorized", "Your account was removed from this organization.");
  return user.role;
}

/** Throws 403 unless the actor may manage people (and owners, when `touchesOwner`). */
export async function requireUserManager(db: DbClient, actor: TActor, touchesOwner = false): Promise<void> {
  const role = await getActorRole(db, actor);
  if (!canManageUsers(role)) throw new AppError("forbidden", `Managing people needs the admin or owner role; you are ${role}.`);
  if (touchesOwner && !canManageOwners(role)) throw new AppError("forbidden", "Only an owner can invite, remove, promote or demote an owner.");
}
