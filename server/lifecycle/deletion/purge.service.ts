// Removes the spans and span events of deleted traces from the database, in bounded statements: each deletes
// at most PURGE_BATCH rows of one trace of one organization, in its own short transaction, so a purge of millions
// of spans never holds ingestion up and never locks another organization's rows (docs/operations.md, "Deleting data").
import type { Database } from "../../db/client.ts";
import * as q from "./deletion.queries.ts";

export const PURGE_BATCH = 2_000;
const PURGES_PER_ROUND = 50;

/**
 * Purges every deleted trace of the organization; returns how many traces it finished and rows it removed. An
 * aborted `signal` stops it between statements; what is left stays recorded in trace_purges for the next purge.
 */
export async function purgeDeletedTraces(db: Database, organizationId: string, signal?: AbortSignal): Promise<{ traces: number; rows: number }> {
  let traces = 0;
  let rows = 0;
  const more = (n: number) => n === PURGE_BATCH && !signal?.aborted;
  while (!signal?.aborted) {
    const purges = await q.selectPurges(db, organizationId, PURGES_PER_ROUND);
    if (purges.length === 0) break;
    const ids = purges.map((p) => p.traceId);
    let n = PURGE_BATCH;
    for (n = PURGE_BATCH; more(n); rows += n) n = await q.deleteSpanEventBatch(db, organizationId, ids, PURGE_BATCH);
    if (n === PURGE_BATCH) break;
    for (n = PURGE_BATCH; more(n); rows += n) n = await q.deleteSpanBatch(db, organizationId, ids, PURGE_BATCH);
    if (n === PURGE_BATCH) break;
    await q.deletePurges(db, organizationId, purges);
    traces += purges.length;
  }
  return { traces, rows };
}

/** Purges the deleted traces of every organization that has some (the sweep's catch-up). */
export async function purgeAllOrganizations(db: Database): Promise<number> {
  let rows = 0;
  for (const organizationId of await q.selectOrganizationsToPurge(db)) rows += (await purgeDeletedTraces(db, organizationId)).rows;
  return rows;
}

export const countPendingPurges = (db: Database, organizationId: string) => q.countPurges(db, organizationId);
