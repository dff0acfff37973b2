// Changing a user's role (docs/operations.md, "Roles and API key scopes"): admins set admin, member and viewer;
// only an owner makes or unmakes an owner; the organization's last owner stays an owner; a removed user is
// restored first. The one role-change path: the console (people.changeRole), REST (POST /users/{id}/role) and the
// admin CLI (set-role) all call it.
import type { Database, DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { assertAllowed, isRole, type TRole } from "../permissions.ts";
import { recordAuditEvents } from "../audit/audit.service.ts";
import { cliActor } from "../audit/actor.ts";
import type { TAuditActor } from "../audit/audit.schemas.ts";
import * as q from "./roles.queries.ts";

/** Who changes a role: a console user (their role decides) or the admin CLI (the operator, null). */
export type TRoleChanger = { organizationId: string; userId: string; role: TRole } | null;

export interface TRoleChange {
  userId: string;
  email: string;
  role: TRole;
  previousRole: TRole;
}

/** Sets the role of a user of the actor's organization; another organization's user is a 404. */
export async function setRole(db: Database, actor: NonNullable<TRoleChanger>, audit: TAuditActor, userId: string, role: TRole): Promise<TRoleChange> {
  assertAllowed({ role: actor.role, scope: null }, "manage-users");
  return db.transaction(async (tx) => {
    const target = await q.findMember(tx, actor.organizationId, userId);
    if (!target) throw notFound("User");
    return applyRole(tx, actor, audit, target, role);
  });
}

/** The admin CLI's `set-role`: the operator may set any role, but the last owner stays protected. */
export async function setRoleByEmail(db: Database, email: string, role: TRole): Promise<TRoleChange> {
  return db.transaction(async (tx) => {
    const target = await q.findUserByEmail(tx, email);
    if (!target) throw new AppError("not_found", `No user with email ${email}.`);
    return applyRole(tx, null, cliActor, target, role);
  });
}

async function applyRole(
  tx: DbClient,
  actor: TRoleChanger,
  audit: TAuditActor,
  target: { id: string; email: string; role: string; organizationId: string; removedAt: Date | null },
  role: TRole,
): Promise<TRoleChange> {
  const previousRole: TRole = isRole(target.role) ? target.role : "viewer";
  const change = { userId: target.id, email: target.email, role, previousRole };
  if (actor && (previousRole === "owner" || role === "owner")) assertAllowed({ role: actor.role, scope: null }, "manage-owners");
  if (target.removedAt) throw new AppError("conflict", "This user was removed: restore them before changing their role.");
  if (previousRole === role) return change;
  if (previousRole === "owner") {
    const owners = await q.lockOwners(tx, target.organizationId);
    if (owners.length <= 1) {
      throw new AppError("conflict", `${target.email} is the organization's last owner: make someone else an owner first.`);
    }
  }
  await q.updateRole(tx, target.organizationId, target.id, role);
  await recordAuditEvents(tx, target.organizationId, audit, [
    { kind: "user.role-changed", targetType: "user", targetId: target.id, before: { email: target.email, role: previousRole }, after: { email: target.email, role } },
  ]);
  return change;
}
