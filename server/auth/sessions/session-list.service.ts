// Listing and ending console sessions (docs/operations.md, "Sessions"): anyone their own; admins and owners those of
// the other people of their organization.
import type { DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { canManageUsers } from "../people/roles.ts";
import * as q from "./sessions.queries.ts";
import { idleTimeoutMs } from "./sessions.service.ts";

export interface TSessionActor {
  organizationId: string;
  userId: string;
  /** The session the request came with (console), marked as current and kept by "end the others". */
  sessionId?: string;
}

/** Checks that the target is in the actor's organization (404 otherwise) and that the actor may see their sessions. */
async function checkTarget(db: DbClient, actor: TSessionActor, userId: string): Promise<void> {
  const target = await q.findUserInOrganization(db, actor.organizationId, userId);
  if (!target) throw notFound("User");
  if (userId === actor.userId) return;
  const self = await q.findUserInOrganization(db, actor.organizationId, actor.userId);
  if (!self || !canManageUsers(self.role)) throw new AppError("forbidden", "Seeing or ending another person's sessions needs the admin or owner role.");
}

export async function findSessions(db: DbClient, actor: TSessionActor, userId = actor.userId) {
  await checkTarget(db, actor, userId);
  const now = new Date();
  const rows = await q.findLiveSessionsOfUser(db, userId, now, new Date(now.getTime() - idleTimeoutMs()));
  return rows.map((r) => ({ ...r, current: r.id === actor.sessionId, idleExpiresAt: new Date(Math.min(r.expiresAt.getTime(), r.lastSeenAt.getTime() + idleTimeoutMs())) }));
}

/** Ends one session of the user (a 404 when it is not theirs). */
export async function revokeSession(db: DbClient, actor: TSessionActor, id: string, userId = actor.userId) {
  await checkTarget(db, actor, userId);
  if (!(await q.findSessionOfUser(db, userId, id))) throw notFound("Session");
  await q.deleteSessionById(db, id);
  return { id, revoked: true };
}

/** Ends every session of the user; of one's own, every one but the current. */
export async function revokeAllSessions(db: DbClient, actor: TSessionActor, userId = actor.userId) {
  await checkTarget(db, actor, userId);
  const keep = userId === actor.userId ? actor.sessionId : undefined;
  const { count } = await q.deleteSessionsOfUser(db, userId, keep);
  return { revoked: count };
}
