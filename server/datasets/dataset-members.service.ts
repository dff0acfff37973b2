// Dataset membership: traces and graders (docs/api/datasets.md). Add and remove calls report
// partial acceptance in named lists instead of failing. Each change runs in one transaction under a lock
// on the dataset row, so concurrent calls never double-report an id as added, and updated_at moves only
// when membership changed.
import { recordAuditEvents } from "../auth/audit/audit.service.ts";
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";
import type { DbClient } from "../db/client.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { isUuid } from "../ids.ts";
import { decodeCursor, encodeCursor } from "../shared/cursor.ts";
import * as q from "./datasets.queries.ts";
import type { TDatasetTraceIdsResponse, TListDatasetTracesQuery } from "./datasets.schemas.ts";
import { getDataset } from "./datasets.service.ts";

const DEFAULT_PAGE = 100;

/** UUIDs compare lowercase; anything else can name no row and is kept as given, for the report. */
export function normaliseIds(ids: string[]): string[] {
  return [...new Set(ids.map((id) => (isUuid(id) ? id.toLowerCase() : id)))];
}

type Locked = { id: string; traceFunctionKey: string };

/** A membership change, for the audit log: which ids came in (after) or went out (before). */
type TMemberChange = { kind: string; field: "traceIds" | "graderIds"; ids: string[]; added: boolean };

/**
 * Runs `change` under the dataset's row lock; a dataset of another organization is a 404. The ids it added or
 * removed are recorded in the audit log in the same transaction.
 */
async function withLockedDataset<T>(
  db: Database,
  organizationId: string,
  actor: TAuditActor,
  datasetId: string,
  change: (tx: DbClient, dataset: Locked) => Promise<{ result: T; changed: boolean; audit: TMemberChange }>,
) {
  if (!isUuid(datasetId)) throw notFound("Dataset");
  const result = await db.transaction(async (tx) => {
    const dataset = await q.lockDataset(tx, organizationId, datasetId.toLowerCase());
    if (!dataset) throw notFound("Dataset");
    const out = await change(tx, dataset);
    if (out.changed) {
      await q.touchDataset(tx, organizationId, dataset.id);
      const ids = { [out.audit.field]: out.audit.ids };
      await recordAuditEvents(tx, organizationId, actor, [{
        kind: out.audit.kind, targetType: "dataset", targetId: dataset.id, before: out.audit.added ? null : ids, after: out.audit.added ? ids : null,
      }]);
    }
    return out.result;
  });
  return { dataset: await getDataset(db, organizationId, datasetId), ...result };
}

export function addDatasetTraces(db: Database, organizationId: string, actor: TAuditActor, datasetId: string, traceIds: string[]) {
  const ids = normaliseIds(traceIds);
  return withLockedDataset(db, organizationId, actor, datasetId, async (tx, dataset) => {
    const uuids = ids.filter(isUuid);
    const eligible = await q.findTraceIdsOfFunction(tx, organizationId, dataset.traceFunctionKey, uuids);
    const present = new Set(await q.findMemberTraceIds(tx, organizationId, dataset.id, { traceIds: uuids }));
    const addedTraceIds = ids.filter((id) => eligible.has(id) && !present.has(id));
    if (addedTraceIds.length > 0) await q.insertMembers(tx, organizationId, dataset.id, addedTraceIds);
    return {
      changed: addedTraceIds.length > 0,
      audit: { kind: "dataset.traces_added", field: "traceIds", ids: addedTraceIds, added: true },
      result: {
        addedTraceIds,
        alreadyPresentTraceIds: ids.filter((id) => present.has(id)),
        skippedTraceIds: ids.filter((id) => !eligible.has(id) && !present.has(id)),
      },
    };
  });
}

export function removeDatasetTraces(db: Database, organizationId: string, actor: TAuditActor, datasetId: string, traceIds: string[]) {
  const ids = normaliseIds(traceIds);
  return withLockedDataset(db, organizationId, actor, datasetId, async (tx, dataset) => {
    const present = new Set(await q.findMemberTraceIds(tx, organizationId, dataset.id, { traceIds: ids.filter(isUuid) }));
    const removedTraceIds = ids.filter((id) => present.has(id));
    if (removedTraceIds.length > 0) await q.deleteMembers(tx, organizationId, dataset.id, removedTraceIds);
    return {
      changed: removedTraceIds.length > 0,
      audit: { kind: "dataset.traces_removed", field: "traceIds", ids: removedTraceIds, added: false },
      result: { removedTraceIds, notPresentTraceIds: ids.filter((id) => !present.has(id)) },
    };
  });
}

export function addDatasetGraders(db: Database, organizationId: string, actor: TAuditActor, datasetId: string, graderIds: string[]) {
  const ids = normaliseIds(graderIds);
  return withLockedDataset(db, organizationId, actor, datasetId, async (tx, dataset) => {
    const uuids = ids.filter(isUuid);
    const assignable = await q.findAssignableGraderIds(tx, organizationId, dataset.traceFunctionKey, uuids);
    const assigned = new Set(await q.findAssignedGraderIds(tx, organizationId, dataset.id, uuids));
    const addedGraderIds = ids.filter((id) => assignable.has(id) && !assigned.has(id));
    if (addedGraderIds.length > 0) await q.insertGraderAssignments(tx, organizationId, dataset.id, addedGraderIds);
    return {
      changed: addedGraderIds.length > 0,
      audit: { kind: "dataset.graders_added", field: "graderIds", ids: addedGraderIds, added: true },
      result: {
        addedGraderIds,
        alreadyAssignedGraderIds: ids.filter((id) => assigned.has(id)),
        skippedGraderIds: ids.filter((id) => !assignable.has(id) && !assigned.has(id)),
      },
    };
  });
}

export function removeDatasetGraders(db: Database, organizationId: string, actor: TAuditActor, datasetId: string, graderIds: string[]) {
  const ids = normaliseIds(graderIds);
  return withLockedDataset(db, organizationId, actor, datasetId, async (tx, dataset) => {
    const assigned = new Set(await q.findAssignedGraderIds(tx, organizationId, dataset.id, ids.filter(isUuid)));
    const removedGraderIds = ids.filter((id) => assigned.has(id));
    if (removedGraderIds.length > 0) await q.deleteGraderAssignments(tx, organizationId, dataset.id, removedGraderIds);
    return {
      changed: removedGraderIds.length > 0,
      audit: { kind: "dataset.graders_removed", field: "graderIds", ids: removedGraderIds, added: false },
      result: { removedGraderIds, notAssignedGraderIds: ids.filter((id) => !assigned.has(id)) },
    };
  });
}

/**
 * Member trace ids, ascending. Without limit and cursor the complete membership (what a replay with
 * `datasetId` selects); otherwise a page after the cursor's trace id.
 */
export async function findDatasetTraceIds(
  db: Database,
  organizationId: string,
  datasetId: string,
  query: TListDatasetTracesQuery = {},
): Promise<TDatasetTraceIdsResponse> {
  if (!isUuid(datasetId) || !(await q.datasetExists(db, organizationId, datasetId))) throw notFound("Dataset");
  datasetId = datasetId.toLowerCase();
  if (query.limit === undefined && query.cursor === undefined) {
    return { datasetId, traceIds: await q.findMemberTraceIds(db, organizationId, datasetId, {}) };
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const after = query.cursor ? decodeCursor(query.cursor, isTraceKey).t : undefined;
  const rows = await q.findMemberTraceIds(db, organizationId, datasetId, { after, limit: limit + 1 });
  const hasMore = rows.length > limit;
  const traceIds = rows.slice(0, limit);
  return { datasetId, traceIds, nextCursor: hasMore ? encodeCursor({ t: traceIds.at(-1) }) : null, hasMore };
}

function isTraceKey(v: unknown): v is { t: string } {
  return typeof v === "object" && v !== null && typeof (v as { t: unknown }).t === "string" && isUuid((v as { t: string }).t);
}

/** Grader ids assigned to a dataset (for replay and re-runs); [] for a dataset of another organization. */
export async function findDatasetGraderIds(db: Database, organizationId: string, datasetId: string): Promise<string[]> {
  if (!isUuid(datasetId) || !(await q.datasetExists(db, organizationId, datasetId))) return [];
  return q.findAssignedGraderIds(db, organizationId, datasetId);
}

/** A page of member trace ids, most recently added first, with the total (the console's dataset page). */
export async function findDatasetMembers(db: Database, organizationId: string, datasetId: string, page: { offset: number; limit: number }) {
  if (!isUuid(datasetId) || !(await q.datasetExists(db, organizationId, datasetId))) throw notFound("Dataset");
  const { rows, total } = await q.findMemberPage(db, organizationId, datasetId.toLowerCase(), page);
  return { total, members: rows.map((r) => ({ traceId: r.traceId, addedAt: r.addedAt.toISOString() })) };
}

/** For each of `traceIds`, the ids of the organization's datasets it belongs to. */
export async function findDatasetIdsOfTraces(db: Database, organizationId: string, traceIds: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = Object.fromEntries(traceIds.map((id) => [id, []]));
  for (const row of await q.findMembershipsOfTraces(db, organizationId, traceIds.filter(isUuid))) out[row.traceId]?.push(row.datasetId);
  return out;
}
