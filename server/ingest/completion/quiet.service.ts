// The quiet-period sweep (docs/otel.md, "Completion"): completes native OpenTelemetry traces and hands
// amended ones to the graders once more. Each batch is one transaction; background loop in quiet.worker.ts.
import type { SqlDatabase } from "../../db/sql.ts";
import { deriveTraceIo } from "./trace-io.ts";
import * as q from "./quiet.queries.ts";

export const SWEEP_BATCH = 100;

const byOrganization = (rows: q.TQuietTrace[]) => {
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.organizationId, [...(map.get(r.organizationId) ?? []), r.id]);
  return map;
};

/** Sets the trace's input and output on its root span when the root carries none (trace-io.ts). */
async function settleTraces(tx: Parameters<Parameters<SqlDatabase["transaction"]>[0]>[0], organizationId: string, traceIds: string[]) {
  await q.alignNodeKeys(tx, organizationId, traceIds);
  for (const traceId of traceIds) {
    const derived = deriveTraceIo(await q.selectIoSpans(tx, organizationId, traceId));
    if (derived) await q.updateRootIo(tx, organizationId, derived.rootId, derived);
  }
}

/** One sweep: returns how many traces it completed and how many amended ones it re-queued. */
export async function sweepQuietTraces(db: SqlDatabase, quietSeconds: number, limit = SWEEP_BATCH): Promise<{ completed: number; amended: number }> {
  const completed = await db.transaction(async (tx) => {
    const rows = await q.claimQuietTraces(tx, quietSeconds, limit);
    for (const [org, ids] of byOrganization(rows)) {
      await settleTraces(tx, org, ids);
      await q.completeQuietTraces(tx, org, ids);
    }
    return rows.length;
  });
  const amended = await db.transaction(async (tx) => {
    const rows = await q.claimAmendedTraces(tx, quietSeconds, limit);
    for (const [org, ids] of byOrganization(rows)) {
      await settleTraces(tx, org, ids);
      await q.markAmendedHandled(tx, org, ids);
    }
    return rows.length;
  });
  return { completed, amended };
}
