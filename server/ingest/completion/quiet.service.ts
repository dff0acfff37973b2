// The quiet-period sweep (docs/otel.md, "Completion"): completes native OpenTelemetry traces and hands
// amended ones to the graders once more. Each organization's batch is one transaction; background loop in quiet.worker.ts.
import type { SqlDatabase } from "../../db/sql.ts";
import { deriveTraceIo } from "./trace-io.ts";
import * as q from "./quiet.queries.ts";

export const SWEEP_BATCH = 100;

/** Sets the trace's input and output on its root span when the root carries none (trace-io.ts). */
async function settleTraces(tx: Parameters<Parameters<SqlDatabase["transaction"]>[0]>[0], organizationId: string, traceIds: string[]) {
  await q.alignNodeKeys(tx, organizationId, traceIds);
  for (const traceId of traceIds) {
    const derived = deriveTraceIo(await q.selectIoSpans(tx, organizationId, traceId));
    if (derived) await q.updateRootIo(tx, organizationId, derived.rootId, derived);
  }
}

/**
 * One sweep: returns how many traces it completed and how many amended ones it re-queued. The organizations with
 * work are read first, without locks; then each organization's traces are claimed and settled in a transaction
 * of their own (docs/operations.md, "Citus": row locks stay within one organization).
 */
export async function sweepQuietTraces(db: SqlDatabase, quietSeconds: number, limit = SWEEP_BATCH): Promise<{ completed: number; amended: number }> {
  let completed = 0;
  for (const org of await q.findQuietOrganizations(db, quietSeconds, limit)) {
    completed += await db.transaction(async (tx) => {
      const ids = await q.claimQuietTraces(tx, org, quietSeconds, limit);
      if (ids.length === 0) return 0;
      await settleTraces(tx, org, ids);
      await q.completeQuietTraces(tx, org, ids);
      return ids.length;
    });
  }
  let amended = 0;
  for (const org of await q.findAmendedOrganizations(db, quietSeconds, limit)) {
    amended += await db.transaction(async (tx) => {
      const ids = await q.claimAmendedTraces(tx, org, quietSeconds, limit);
      if (ids.length === 0) return 0;
      await settleTraces(tx, org, ids);
      await q.markAmendedHandled(tx, org, ids);
      return ids.length;
    });
  }
  return { completed, amended };
}
