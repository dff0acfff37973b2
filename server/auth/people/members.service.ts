// The people of an organization: list, remove (their sessions and API keys end at once), restore, change a role.
// The last owner can be neither removed nor demoted (docs/operations.md, "People and invitations").
import type { Database, DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { recordAuditEvents } from "../audit/audit.service.ts";
import { auditActorOf, requireUserManager } from "./actor.ts";
import * as q from "./people.queries.ts";
import type { TActor } from "./people.schemas.ts";

export function toUserResponse(u: { id: string; email: string; name: string | null; role: string; createdAt: Date; removedAt: Date | null }) {
  return { id: u.id, email: u.email, name: u.name, role: u.role, createdAt: u.createdAt, removedAt: u.removedAt };
}

export async function findPeople(db: DbClient, organizationId: string) {
  return (await q.findUsersOfOrganization(db, organizationId)).map(toUserResponse);
}

async function getTarget(db: DbClient, organizationId: string, userId: string) {
  const user = await q.findUserInOrganization(db, organizationId, userId);
  if (!user) throw notFound("User");
  return user;
}

/** Refuses a change that would leave the organization without an active owner. */
async function assertOwnerRemains(db: DbClient, organizationId: string, target: { role: string; removedAt: Date | null }) {
  if (target.role !== "owner" || target.removedAt) return;
  if ((await q.countActiveOwners(db, organizationId)) <= 1) {
    throw new AppError("conflict", "This is the organization's last owner: make someone else an owner first.");
  }
}

/** Removes a user: they can no longer sign in, their console sessions end and their API keys are revoked. */
export async function removeUser(db: Database, actor: TActor, userId: string) {
  return db.transaction(async (tx) => {
    await q.lockPeopleOfOrganization(tx, actor.organizationId);
    const target = await getTarget(tx, actor.organizationId, userId);
    await requireUserManager(tx, actor, target.role === "owner");
    if (target.removedAt) return { user: toUserResponse(target) };
    await assertOwnerRemains(tx, actor.organizationId, target);
    const now = new Date();
    await q.markUserRemoved(tx, actor.organizationId, userId, actor.userId, now);
    await q.deleteSessionsOfUser(tx, userId);
    await q.revokeApiKeysOfUser(tx, actor.organizationId, userId, now);
    await recordAuditEvents(tx, actor.organizationId, auditActorOf(actor), [{
      kind: "user.removed", targetType: "user", targetId: userId, before: { email: target.email, role: target.role, removed: false }, after: { email: target.email, role: target.role, removed: true },
    }]);
    return { user: toUserResponse({ ...target, removedAt: now }) };
  });
}

/** Undoes a removal: the user can sign in again (their revoked API keys stay revoked). */
export async function restoreUser(db: Database, actor: TActor, userId: string) {
  return db.transaction(async (tx) => {
    await q.lockPeopleOfOrganization(tx, actor.organizationId);
    const target = await getTarget(tx, actor.organizationId, userId);
    await requireUserManager(tx, actor, target.role === "owner");
    await q.markUserRestored(tx, actor.organizationId, userId);
    if (target.removedAt) {
      await recordAuditEvents(tx, actor.organizationId, auditActorOf(actor), [{
        kind: "user.restored", targetType: "user", targetId: userId, before: { email: target.email, role: target.role, removed: true }, after: { email: target.email, role: target.role, removed: false },
      }]);
    }
    return { user: toUserResponse({ ...target, removedAt: null }) };
  });
}
