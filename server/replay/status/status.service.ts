// POST /api/sdk/replay/status: the persistence barrier (docs/replay.md,
// "Status: the persistence barrier"). It reads the run and never finalizes it.
import type { Database } from "../../db/client.ts";
import { getExperiment } from "../experiments/experiments.service.ts";
import type { TStatusBody, TStatusResponse } from "./status.schemas.ts";
import * as q from "../experiments/run-traces.queries.ts";

const FINAL_STATUSES = new Set(["completed", "failed"]);

/**
 * `traceIds` maps the SDK's local trace id (source_trace_id) to the server id. With `expectedSpanCounts`, a
 * trace is listed only once it is final and has at least that many final spans stored; a trace the map does
 * not name only needs to be final. Without it, every replay trace of the run is listed (the older contract).
 * `traceCount` counts every replay trace of the run, listed or not yet.
 */
export async function getReplayStatus(db: Database, organizationId: string, body: TStatusBody): Promise<TStatusResponse> {
  const experiment = await getExperiment(db, organizationId, body.experimentId);
  const traces = await q.selectRunTraces(db, organizationId, experiment.id);
  const expected = body.expectedSpanCounts;
  let ready = traces;
  if (expected) {
    const finalSpans = await q.countFinalSpans(db, organizationId, traces.map((t) => t.id));
    ready = traces.filter(
      (t) => FINAL_STATUSES.has(t.status) && (finalSpans.get(t.id) ?? 0) >= expectedCount(expected, t.sourceTraceId),
    );
  }
  return {
    traceIds: Object.fromEntries(ready.map((t) => [t.sourceTraceId, t.id])),
    status: experiment.status as TStatusResponse["status"],
    traceCount: traces.length,
  };
}

function expectedCount(expected: Record<string, number>, localTraceId: string): number {
  return Object.hasOwn(expected, localTraceId) ? (expected[localTraceId] ?? 0) : 0;
}
