// Deleting traces (docs/operations.md, "Deleting data"; docs/api.md, "Deleting data"): by id, by a filter of the
// trace list (counted first, then confirmed with that count), by session id, or by a user id in the metadata.
// A trace and everything small that hangs from it go in one short transaction per chunk, so when the call answers
// no read, search, count or export finds it; its spans follow in the purge job. Traces named by id are recorded
// one `trace.deleted` audit event each; a delete by filter, session or user is ONE `trace.bulk_deleted` event
// (what selected them, how many), however many traces it removes.
import { recordAuditEvents } from "../../auth/audit/audit.service.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import type { Database, DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { logger } from "../../logger.ts";
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

/** What a bulk delete selected its traces by, as its one audit event records it. */
type TBulkSelector =
  | { by: "filter"; filter: Partial<TTraceFilters> }
  | { by: "session"; sessionId: string }
  | { by: "user"; userId: string; metadataKey: string };

/** The one `trace.bulk_deleted` event of a delete by filter, session or user: what selected the traces and how many went. */
function recordBulkDelete(tx: DbClient, organizationId: string, actor: TAuditActor, selector: TBulkSelector, count: number, interrupted: boolean) {
  return recordAuditEvents(tx, organizationId, actor, [{
    kind: "trace.bulk_deleted",
    targetType: "organization",
    targetId: organizationId,
    before: { ...selector, count, ...(interrupted ? { interrupted: true } : {}) },
    after: null,
  }]);
}

/**
 * A delete by filter, session or user: chunks of DELETE_CHUNK traces, each in its own short transaction, and ONE
 * audit event for the whole delete, written in the transaction of the last chunk (so the event commits with the
 * delete's end). `next` answers the next chunk and whether it is the last. A selection read afresh per chunk
 * (session, user) ends at a chunk that deleted nothing (someone else deleted it meanwhile), rather than select it
 * again; ids fixed up front (filter) go on past one. Should a chunk fail after others committed, the event is
 * written with what was deleted and `interrupted: true` before the error goes on.
 */
async function deleteInChunks(
  db: Database,
  organizationId: string,
  actor: TAuditActor,
  selector: TBulkSelector,
  next: () => Promise<{ ids: string[]; last: boolean }>,
  { endOnEmptyChunk }: { endOnEmptyChunk: boolean },
): Promise<string[]> {
  const deleted: string[] = [];
  try {
    for (;;) {
      const { ids, last } = await next();
      const chunk = ids.length === 0 ? [] : await db.transaction(async (tx) => {
        const gone = await q.deleteTraceRows(tx, organizationId, ids, new Date());
        const count = deleted.length + gone.length;
        const end = last || (endOnEmptyChunk && gone.length === 0);
        if (end && count > 0) await recordBulkDelete(tx, organizationId, actor, selector, count, false);
        return gone;
      });
      deleted.push(...chunk);
      if (last || (endOnEmptyChunk && chunk.length === 0)) break;
    }
  } catch (error) {
    if (deleted.length > 0) {
      // The delete's own error is what the caller must see; a database too broken to record is logged.
      await db.transaction((tx) => recordBulkDelete(tx, organizationId, actor, selector, deleted.length, true))
        .then(() => queuePurge(db, organizationId))
        .catch((recordError: unknown) => logger.error("an interrupted bulk delete could not be recorded", { organizationId, deleted: deleted.length, error: (recordError as Error).message }));
    }
    throw error;
  }
  if (deleted.length > 0) await queuePurge(db, organizationId);
  return deleted;
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
  const metadataKey = body.metadataKey ?? DEFAULT_USER_KEY;
  const [selector, select]: [TBulkSelector, (take: number) => Promise<string[]>] = body.sessionId !== undefined
    ? [{ by: "session", sessionId: body.sessionId }, (take) => q.selectSessionTraceIds(db, org, body.sessionId!, take)]
    : [{ by: "user", userId: body.userId!, metadataKey }, (take) => q.selectUserTraceIds(db, org, metadataKey, body.userId!, take)];
  // One more than a chunk tells whether this chunk is the last.
  const deleted = await deleteInChunks(db, org, actor, selector, async () => {
    const ids = await select(DELETE_CHUNK + 1);
    return { ids: ids.slice(0, DELETE_CHUNK), last: ids.length <= DELETE_CHUNK };
  }, { endOnEmptyChunk: true });
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
  let from = 0;
  const deleted = await deleteInChunks(db, organizationId, actor, { by: "filter", filter: filters }, async () => {
    const chunk = ids.slice(from, (from += DELETE_CHUNK));
    return { ids: chunk, last: from >= ids.length };
  }, { endOnEmptyChunk: false });
  return { dryRun: false, count: deleted.length, deletedTraceIds: deleted, notFoundTraceIds: [] };
}
