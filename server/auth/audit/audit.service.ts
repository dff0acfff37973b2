// The audit log (docs/operations.md, "Audit log"): every change to graders, the sim plan, API keys and roles is
// recorded with who made it (a console user, a key, an agent's tool, the admin CLI), what it was before and
// after, in the same transaction as the change, so a change and its record commit or roll back together.
// Reads are not logged.
import type { DbClient } from "../../db/client.ts";
import { newId } from "../../ids.ts";
import { decodeCursor, encodeCursor } from "../../shared/cursor.ts";
import * as q from "./audit.queries.ts";
import type { TAuditActor, TAuditChange, TAuditPage, TAuditQuery } from "./audit.schemas.ts";

/** Records changes; call it with the transaction that makes them. A change that changed nothing is not recorded. */
export async function recordAuditEvents(tx: DbClient, organizationId: string, actor: TAuditActor, changes: TAuditChange[]): Promise<void> {
  // Dated here, to the millisecond the cursors carry, rather than by the database's clock in microseconds.
  const at = new Date();
  const rows = changes.map((c) => ({
    organizationId,
    id: newId(),
    at,
    actorVia: actor.via,
    actorUserId: actor.userId,
    actorApiKeyId: actor.apiKeyId ?? null,
    actorTool: actor.tool ?? null,
    kind: c.kind,
    targetType: c.targetType,
    targetId: c.targetId,
    before: c.before ?? null,
    after: c.after ?? null,
  }));
  if (rows.length > 0) await q.insertAuditEvents(tx, rows);
}

type TCursor = [string, string];
const isCursor = (v: unknown): v is TCursor => Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && !Number.isNaN(Date.parse(v[0])) && typeof v[1] === "string";

/** A page of the organization's audit log, newest first. */
export async function findAuditEvents(db: DbClient, organizationId: string, query: TAuditQuery): Promise<TAuditPage> {
  const after = query.cursor ? decodeCursor(query.cursor, isCursor) : undefined;
  const rows = await q.findAuditEventsPage(db, organizationId, {
    actorUserId: query.actorUserId,
    via: query.via,
    kindPrefix: query.kind,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    after: after ? { at: new Date(after[0]), id: after[1] } : undefined,
  }, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const userIds = [...new Set(page.flatMap((r) => (r.actorUserId ? [r.actorUserId] : [])))];
  const emails = new Map((userIds.length ? await q.findEmailsOfUsers(db, organizationId, userIds) : []).map((u) => [u.id, u.email]));
  const last = page.at(-1);
  return {
    events: page.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: { via: r.actorVia as TAuditActor["via"], userId: r.actorUserId, email: r.actorUserId ? (emails.get(r.actorUserId) ?? null) : null, apiKeyId: r.actorApiKeyId, tool: r.actorTool },
      kind: r.kind,
      target: { type: r.targetType, id: r.targetId },
      before: r.before,
      after: r.after,
    })),
    nextCursor: rows.length > query.limit && last ? encodeCursor([last.at.toISOString(), last.id]) : null,
  };
}
