// Deleting traces (docs/operations.md, "Deleting data"; docs/api.md, "Deleting data"): by id, by a filter of the
// trace list (counted first, then confirmed with that count), by session id, or by a user id in the metadata.
// A trace and everything small that hangs from it go in one short transaction per chunk, so when the call answers
// no read, search, count or export finds it; its spans follow in the purge job.
import { recordAuditEvents } from "../../auth/audit/audit.service.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import type { Database } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { countTraces, findMatchingTraceIds, type TTraceFilters } from "../../traces/traces.service.ts";
import { assertMayDelete, type TDeleter } from "../may-delete.ts";
import * as q from "./deletion.queries.ts";
import { MAX_FILTER_DELETE, type TDeleteTracesBody, type TDeleteTracesResponse } from "./deletion.schemas.ts";
import { queuePurge } from "./purge.queue.ts";

/** Traces per transaction: each chunk commits on its own, briefly holding only its own rows. */
export const DELETE_CHUNK = 500;

/** The metadata key a "forget this customer" request reads the user id from by default. */
export const DEFAULT_USER_KEY = "userId";

/** Deletes the given traces of the organization in chunks; returns the ids that were deleted. */
export async function deleteTracesById(db: Database, organizationId: string, actor: TAuditActor, ids: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  for (let i = 0; i < unique.length; i += DELETE_CHUNK) {
    const chunk = unique.slice(i, i + DELETE_CHUNK);
    deleted.push(...(await deleteChunk(db, organizationId, actor, chunk)));
  }
  if (deleted.length > 0) await queuePurge(db, organizationId);
  return deleted;
}

/** One chunk in one transaction, with an audit event per trace it deleted (the retention sweep is not a person's change). */
function deleteChunk(db: Database, organizationId: string, actor: TAuditActor, ids: string[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    const deleted = await q.deleteTraceRows(tx, organizationId, ids, new Date());
    await recordAuditEvents(tx, organizationId, actor, deleted.map((id) => ({ kind: "trace.deleted", targetType: "trace", targetId: id, before: { traceId: id }, after: null })));
    return deleted;
  });
}

/** DELETE one trace; an unknown or another organization's id is a 404. */
export async function deleteTrace(db: Database, auth: TDeleter, actor: TAuditActor, traceId: string): Promise<{ deletedTraceId: string }> {
  assertMayDelete(auth);
  const [deleted] = await deleteTracesById(db, auth.organizationId, actor, [traceId]);
  if (!deleted) throw notFound(`Trace ${traceId}`);
  return { deletedTraceId: deleted };
}

/** The one entry of REST, MCP and the console: what the body names, deleted (or, for a dry run, counted). */
export async function deleteTraces(db: Database, auth: TDeleter, actor: TAuditActor, body: TDeleteTracesBody, consoleFilters: Partial<TTraceFilters> = {}): Promise<TDeleteTracesResponse> {
  assertMayDelete(auth);
  const org = auth.organizationId;
  if (body.traceIds) {
    const deleted = await deleteTracesById(db, org, actor, body.traceIds);
    const gone = new Set(deleted);
    return { dryRun: false, count: deleted.length, deletedTraceIds: deleted, notFoundTraceIds: body.traceIds.filter((id) => !gone.has(id)) };
  }
  if (body.filter) return deleteByFilter(db, org, actor, { ...body.filter, ...consoleFilters }, body);
  const select = body.sessionId !== undefined
    ? (take: number) => q.selectSessionTraceIds(db, org, body.sessionId!, take)
    : (take: number) => q.selectUserTraceIds(db, org, body.metadataKey ?? DEFAULT_USER_KEY, body.userId!, take);
  const deleted: string[] = [];
  for (let ids = await select(DELETE_CHUNK); ids.length > 0; ids = await select(DELETE_CHUNK)) {
    const chunk = await deleteChunk(db, org, actor, ids);
    deleted.push(...chunk);
    if (chunk.length === 0) break;
  }
  if (deleted.length > 0) await queuePurge(db, org);
  return { dryRun: false, count: deleted.length, deletedTraceIds: deleted, notFoundTraceIds: [] };
}

async function deleteByFilter(db: Database, organizationId: string, actor: TAuditActor, filters: TTraceFilters, body: TDeleteTracesBody): Promise<TDeleteTracesResponse> {
  const count = await countTraces(db, organizationId, filters);
  if (body.dryRun) return { dryRun: true, count, deletedTraceIds: [], notFoundTraceIds: [] };
  if (body.confirmCount === undefined) throw new AppError("bad_request", "A filtered delete needs confirmCount: count first (dryRun), then confirm that number.");
  if (count !== body.confirmCount) {
    throw new AppError("conflict", `${count} traces match the filter now, not the ${body.confirmCount} confirmed; count again (dryRun) and confirm that number. Nothing was deleted.`);
  }
  if (count > MAX_FILTER_DELETE) {
    throw new AppError("bad_request", `${count} traces match; one filtered delete removes at most ${MAX_FILTER_DELETE}. Narrow the filter (a date range) or set a retention period. Nothing was deleted.`);
  }
  const ids = count === 0 ? [] : await findMatchingTraceIds(db, organizationId, filters, count);
  const deleted = await deleteTracesById(db, organizationId, actor, ids);
  return { dryRun: false, count: deleted.length, deletedTraceIds: deleted, notFoundTraceIds: [] };
}
