// Reading and changing the organization's retention period (docs/operations.md, "Retention"). A change is a
// person's decision: it is recorded with what it replaced, who made it and through what, so it can be undone.
import { recordAuditEvents } from "../audit/audit.service.ts";
import type { TAuditActor } from "../audit/audit.schemas.ts";
import type { Database, DbClient } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import * as q from "./retention.queries.ts";
import type { TRetentionResponse } from "./retention.schemas.ts";


export async function getRetention(db: DbClient, organizationId: string): Promise<TRetentionResponse> {
  const org = await q.selectRetentionDays(db, organizationId);
  if (!org) throw notFound("Organization");
  const changes = await q.selectRetentionChanges(db, organizationId, 20);
  return {
    retentionDays: org.retentionDays,
    changes: changes.map((c) => ({ ...c, changedAt: c.changedAt.toISOString() })),
  };
}

/** Sets the period (null: keep forever); an unchanged value records nothing. */
export async function setRetention(
  db: Database,
  organizationId: string,
  actor: TAuditActor,
  retentionDays: number | null,
): Promise<TRetentionResponse> {
  await db.transaction(async (tx) => {
    const org = await q.selectRetentionDays(tx, organizationId);
    if (!org) throw notFound("Organization");
    if (org.retentionDays === retentionDays) return;
    await q.updateRetentionDays(tx, organizationId, retentionDays);
    // The history names the admin CLI "admin", as it always has.
    const via = actor.via === "cli" ? "admin" : actor.via;
    await q.insertRetentionChange(tx, organizationId, {
      id: newId(), previousDays: org.retentionDays, retentionDays, changedByUserId: actor.userId, changedVia: via, changedAt: new Date(),
    });
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: "retention.changed", targetType: "organization", targetId: organizationId, before: { retentionDays: org.retentionDays }, after: { retentionDays },
    }]);
  });
  return getRetention(db, organizationId);
}

/** The organizations whose traces the sweep ages out, with their periods. */
export const findOrganizationsWithRetention = (db: DbClient) =>
  q.selectOrganizationsWithRetention(db).then((rows) => rows.map((r) => ({ organizationId: r.id, retentionDays: r.retentionDays! })));
