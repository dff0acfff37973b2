// Evaluation of a completed replay run (docs/replay.md, "Complete";
// docs/graders.md), queued rather than run in the request, so complete answers at once
// (SDKs give it 30 s) and a crash loses nothing. For each final replay trace, in the caller's transaction:
// 1. grading by the run's graders (graderIds + the datasets' active graders): one job per (trace, grader) on
//    the graders' queue (enqueueGrading); the grading worker writes the grader labels;
// 2. when the run was started with judgeAssertions (the default): one job on the replay-evaluation queue;
//    the worker evaluates the trace's assertions (trace-assertions.ts).
import type { DbClient } from "../../../db/client.ts";
import type { Database } from "../../../db/client.ts";
import { enqueueGrading } from "../../../grading/grading.service.ts";
import { gradingJobClient } from "../../../grading/grading.queues.ts";
import { idList, type TExperimentRow } from "../../experiments/experiments.service.ts";
import type { TRunTraceRow } from "../../experiments/run-traces.queries.ts";
import { EVALUATION_QUEUE, evaluationJobClient, evaluationJobs } from "./evaluation.queue.ts";

/**
 * Defines the queues before the transaction: defining one takes the migration lock, which on PGlite would
 * wait on the single session the transaction holds.
 */
export async function prepareRunEvaluation(db: Database): Promise<void> {
  await Promise.all([gradingJobClient(db), evaluationJobClient(db)]);
}

/** Queues the run's evaluation with the caller's transaction; returns how many jobs of each kind. */
export async function enqueueRunEvaluation(
  db: Database,
  tx: DbClient,
  organizationId: string,
  experiment: TExperimentRow,
  traces: TRunTraceRow[],
): Promise<{ grading: number; assertions: number }> {
  // A trace still pending has not all its spans; grading and judging wait for its final state.
  const final = traces.filter((t) => t.status === "completed" || t.status === "failed").map((t) => t.id);
  const graderIds = idList(experiment.graderIds);
  const grading = graderIds.length > 0 && final.length > 0
    ? await enqueueGrading(db, final.map((traceId) => ({ organizationId, traceId, graderIds })), tx)
    : 0;
  if (!experiment.judgeAssertions || final.length === 0) return { grading, assertions: 0 };
  const jobs = evaluationJobs(organizationId, experiment.id, final);
  await (await evaluationJobClient(db)).insert(EVALUATION_QUEUE, jobs, tx);
  return { grading, assertions: jobs.length };
}
