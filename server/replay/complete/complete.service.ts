// POST /api/sdk/replay/complete (docs/api/replay.md; docs/replay.md, "Complete"): marks the run completed, answers the
// persisted traces with their tokens and outlines, and queues the run's evaluation (graders, assertions) in
// the same transaction, answering without waiting for it (SDKs give complete 30 s; an LLM judge can take
// longer). Idempotent: the answer is computed from what is stored, so a retry gets the same answer; a
// re-completion queues the evaluation again, whose verdicts replace the previous ones.
import type { Database } from "../../db/client.ts";
import { enqueueRunEvaluation, prepareRunEvaluation } from "./evaluation/evaluate-run.ts";
import { notifyReplayCompleted } from "./evaluation/evaluation.queue.ts";
import { getExperiment } from "../experiments/experiments.service.ts";
import { markCompleted, selectItemTraceIds } from "../experiments/experiments.queries.ts";
import { findTraceOutlines } from "../outline/outline.service.ts";
import type { TCompleteBody, TCompleteResponse } from "./complete.schemas.ts";
import * as q from "../experiments/run-traces.queries.ts";

export async function completeReplay(db: Database, organizationId: string, body: TCompleteBody): Promise<TCompleteResponse> {
  const experiment = await getExperiment(db, organizationId, body.experimentId);
  const [runTraces, originalIds] = await Promise.all([
    q.selectRunTraces(db, organizationId, experiment.id),
    selectItemTraceIds(db, experiment.id),
  ]);
  const originalRows = await q.selectTracesById(db, organizationId, originalIds);
  const byId = new Map(originalRows.map((t) => [t.id, t]));
  const originals = originalIds.flatMap((id) => byId.get(id) ?? []);
  const { outlines, metrics } = await findTraceOutlines(db, organizationId, [...runTraces, ...originals]);
  await prepareRunEvaluation(db);
  await db.transaction(async (tx) => {
    await markCompleted(tx, organizationId, experiment.id);
    await enqueueRunEvaluation(db, tx, organizationId, experiment, runTraces);
  });
  notifyReplayCompleted(db);
  const outlineOf = (id: string) => outlines.get(id)!;
  return {
    testRunId: experiment.id,
    experimentId: experiment.id,
    status: "completed",
    traceIds: Object.fromEntries(runTraces.map((t) => [t.sourceTraceId, t.id])),
    tokens: Object.fromEntries(runTraces.map((t) => [t.id, metrics.get(t.id)?.tokens ?? null])),
    traceCount: runTraces.length,
    traceOutlines: Object.fromEntries(runTraces.map((t) => [t.id, outlineOf(t.id)])),
    originalTraceOutlines: Object.fromEntries(originals.map((t) => [t.id, outlineOf(t.id)])),
  };
}
