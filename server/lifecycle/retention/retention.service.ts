// The retention sweep and pins (docs/operations.md, "Retention"). Each organization with a period loses its traces
// received more than that many days ago, except those a person pinned and those in a dataset, in chunks of
// SWEEP_CHUNK traces per short transaction; their spans then go in the purge's bounded statements.
import { recordAuditEvents } from "../../auth/audit/audit.service.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import type { Database } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import { findOrganizationsWithRetention } from "../../auth/settings/retention.service.ts";
import { deleteTraceRows } from "../deletion/deletion.queries.ts";
import { purgeAllOrganizations, purgeDeletedTraces } from "../deletion/purge.service.ts";
import * as q from "./retention.queries.ts";

export const SWEEP_CHUNK = 200;
const DAY_MS = 86_400_000;

export interface TSweepResult {
  organizations: number;
  traces: number;
  spanRows: number;
}

/**
 * Ages out one organization's traces older than `retentionDays` (as of `now`); returns how many traces went. An
 * aborted `signal` stops it between statements (what it deleted stays deleted; the next sweep goes on from there).
 */
export async function sweepOrganization(db: Database, organizationId: string, retentionDays: number, now = new Date(), signal?: AbortSignal): Promise<{ traces: number; spanRows: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  let traces = 0;
  let spanRows = 0;
  while (!signal?.aborted) {
    const ids = await q.selectExpiredTraceIds(db, organizationId, cutoff, SWEEP_CHUNK);
    if (ids.length === 0) break;
    traces += (await db.transaction((tx) => deleteTraceRows(tx, organizationId, ids, new Date()))).length;
    // Purge as it goes, so a sweep over millions of spans never leaves them all for later.
    spanRows += (await purgeDeletedTraces(db, organizationId, signal)).rows;
  }
  return { traces, spanRows };
}

/** One sweep over every organization with a period, then the purge of anything a deletion left; `signal` stops it early. */
export async function sweepRetention(db: Database, now = new Date(), signal?: AbortSignal): Promise<TSweepResult> {
  const result: TSweepResult = { organizations: 0, traces: 0, spanRows: 0 };
  for (const { organizationId, retentionDays } of await findOrganizationsWithRetention(db)) {
    if (signal?.aborted) return result;
    const swept = await sweepOrganization(db, organizationId, retentionDays, now, signal);
    result.organizations++;
    result.traces += swept.traces;
    result.spanRows += swept.spanRows;
  }
  if (!signal?.aborted) result.spanRows += await purgeAllOrganizations(db);
  return result;
}

export interface TPin {
  traceId: string;
  pinned: boolean;
  pinnedAt: string | null;
  pinnedByUserId: string | null;
}

/** Pins (the sweep keeps it) or unpins a trace; another organization's or an unknown trace is a 404. */
export async function setTracePin(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, traceId: string, pinned: boolean): Promise<TPin> {
  return db.transaction(async (tx) => {
    const before = await q.selectPin(tx, auth.organizationId, traceId);
    if (!before) throw notFound(`Trace ${traceId}`);
    const row = await q.updatePin(tx, auth.organizationId, traceId, pinned ? { at: new Date(), userId: auth.userId } : null);
    if (!row) throw notFound(`Trace ${traceId}`);
    if ((before.pinnedAt !== null) !== pinned) {
      await recordAuditEvents(tx, auth.organizationId, actor, [{
        kind: pinned ? "trace.pinned" : "trace.unpinned", targetType: "trace", targetId: traceId, before: { pinned: !pinned }, after: { pinned },
      }]);
    }
    return toPin(traceId, row);
  });
}

export async function getTracePin(db: Database, organizationId: string, traceId: string): Promise<TPin> {
  const row = await q.selectPin(db, organizationId, traceId);
  if (!row) throw notFound(`Trace ${traceId}`);
  return toPin(traceId, row);
}

function toPin(traceId: string, row: { pinnedAt: Date | null; pinnedByUserId: string | null }): TPin {
  return { traceId, pinned: row.pinnedAt !== null, pinnedAt: row.pinnedAt ? new Date(row.pinnedAt).toISOString() : null, pinnedByUserId: row.pinnedByUserId };
}
