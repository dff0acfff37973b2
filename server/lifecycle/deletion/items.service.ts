// Deleting a dataset (never its traces), a grader or an assertion, and restoring the last two (docs/operations.md,
// "Deleting data"). A grader or an assertion is a person's decision: deleting it keeps a tombstone with its rows
// as they were, so it can be restored with who deleted it and when on record.
import { recordAuditEvents } from "../../auth/audit/audit.service.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import type { Database } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { assertMayDelete, type TDeleter } from "../may-delete.ts";
import * as q from "./items.queries.ts";

export type TTombstoneKind = "grader" | "assertion";

export interface TTombstone {
  id: string;
  kind: string;
  itemId: string;
  name: string;
  deletedByUserId: string | null;
  deletedVia: string;
  deletedAt: string;
  restoredAt: string | null;
}

function toTombstone(row: q.TTombstoneRow): TTombstone {
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return {
    id: row.id, kind: row.kind, itemId: row.itemId, name: row.name, deletedByUserId: row.deletedByUserId,
    deletedVia: row.deletedVia, deletedAt: iso(row.deletedAt)!, restoredAt: iso(row.restoredAt),
  };
}

/** Deletes a dataset with its membership and grader assignments; its traces stay. Another organization's id is a 404. */
export async function deleteDataset(db: Database, auth: TDeleter, actor: TAuditActor, id: string): Promise<{ deletedDatasetId: string; keptTraceCount: number }> {
  assertMayDelete(auth);
  const result = await db.transaction(async (tx) => {
    const deleted = await q.deleteDatasetRow(tx, auth.organizationId, id);
    if (deleted) await recordAuditEvents(tx, auth.organizationId, actor, [{ kind: "dataset.deleted", targetType: "dataset", targetId: id, before: deleted, after: null }]);
    return deleted;
  });
  if (!result) throw notFound(`Dataset ${id}`);
  return { deletedDatasetId: id, keptTraceCount: result.traceCount };
}

/** Deletes a grader, keeping a tombstone; its grader labels stay stored, unread until a restore. */
export function deleteGrader(db: Database, auth: TDeleter, actor: TAuditActor, id: string): Promise<{ tombstone: TTombstone }> {
  return deleteWithTombstone(db, auth, actor, "grader", id);
}

/** Deletes an assertion with its versions and verdicts, keeping a tombstone. */
export function deleteAssertion(db: Database, auth: TDeleter, actor: TAuditActor, id: string): Promise<{ tombstone: TTombstone }> {
  return deleteWithTombstone(db, auth, actor, "assertion", id);
}

async function deleteWithTombstone(db: Database, auth: TDeleter, actor: TAuditActor, kind: TTombstoneKind, id: string) {
  assertMayDelete(auth);
  const org = auth.organizationId;
  return db.transaction(async (tx) => {
    const found = kind === "grader" ? await q.snapshotGrader(tx, org, id) : await q.snapshotAssertion(tx, org, id);
    if (!found) throw notFound(kind === "grader" ? `Grader ${id}` : `Assertion ${id}`);
    const row = { id: newId(), kind, itemId: id, snapshot: found.snapshot, deletedByUserId: auth.userId, deletedVia: actor.via, deletedAt: new Date() };
    await q.insertTombstone(tx, org, row);
    await recordAuditEvents(tx, org, actor, [{ kind: `${kind}.deleted`, targetType: kind, targetId: id, before: found.snapshot, after: { tombstoneId: row.id } }]);
    if (kind === "grader") await q.deleteGraderRow(tx, org, id);
    else await q.deleteAssertionRow(tx, org, id);
    return { tombstone: toTombstone({ ...row, name: found.name, restoredAt: null }) };
  });
}

/** Restores what a tombstone kept. A restored, unknown or another organization's tombstone is a 404. */
export async function restoreDeleted(db: Database, auth: TDeleter, actor: TAuditActor, tombstoneId: string): Promise<{ tombstone: TTombstone }> {
  assertMayDelete(auth);
  const org = auth.organizationId;
  try {
    return await db.transaction(async (tx) => {
      const row = await q.lockTombstone(tx, org, tombstoneId);
      if (!row || row.restoredAt !== null) throw notFound(`Deleted item ${tombstoneId}`);
      if (row.kind === "grader") await q.restoreGraderRows(tx, org, row.snapshot);
      else if (!(await q.restoreAssertionRows(tx, org, row.snapshot))) {
        throw new AppError("conflict", `The trace of assertion ${row.itemId} was deleted; the assertion cannot come back. Nothing was restored.`);
      }
      const at = new Date();
      await q.markRestored(tx, org, tombstoneId, at);
      await recordAuditEvents(tx, org, actor, [{ kind: `${row.kind}.restored`, targetType: row.kind, targetId: row.itemId, before: { tombstoneId }, after: row.snapshot }]);
      return { tombstone: toTombstone({ ...row, restoredAt: at }) };
    });
  } catch (error) {
    if ((error as { code?: string })?.code === "23505") {
      throw new AppError("conflict", "Another grader now has this grader's name for its trace function; rename that one, then restore. Nothing was restored.");
    }
    throw error;
  }
}

/** Deleted graders and assertions that can still be restored, newest first. */
export async function findTombstones(db: Database, organizationId: string, kind?: TTombstoneKind): Promise<{ tombstones: TTombstone[] }> {
  return { tombstones: (await q.selectTombstones(db, organizationId, kind, 200)).map(toTombstone) };
}
