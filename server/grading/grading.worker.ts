// The grading worker: runs grading jobs (live, re-run, replay), records dead jobs, and dispatches completion
// events. Works on the process's one job worker, which server/workers.ts starts at start-up.
import type { Database } from "../db/client.ts";
import { newId } from "../ids.ts";
import { logger } from "../logger.ts";
import { findGraderRowsByIds } from "../graders/graders.queries.ts";
import type { JobWorker, ReceivedJob } from "../jobs/queue.ts";
import { isRerunItemDone, markRerunErrored, markRerunRunning, recordRerunItemDone } from "./reruns/reruns.queries.ts";
import { findGradingSpans, findGradingTrace, hasGraderLabelAtVersion, upsertGraderLabel } from "./grading.queries.ts";
import { GRADING_DEAD_QUEUE, GRADING_QUEUE, GRADING_QUEUE_OPTIONS, gradingJobClient, type TGradingJob } from "./grading.queues.ts";
import { evaluateGrader, whyNotGradable } from "./grading.service.ts";
import type { JudgeOptions } from "./judge.ts";
import { startLiveDispatcher } from "./live.ts";

/**
 * Grades one (trace, grader) and writes its label. For a re-run, an item already recorded done (its job
 * was retried after a crash between commit and acknowledgement) is not graded again, and the label and
 * the progress are written in one transaction, so no trace is graded twice in a run's result. A backfill's job
 * (oncePerVersion) skips a trace labelled at the grader's current version meanwhile (docs/graders.md, "Online evaluation").
 */
export async function runGradingJob(db: Database, job: TGradingJob, judge?: JudgeOptions): Promise<void> {
  const { organizationId, traceId, graderId, runId } = job;
  if (runId && !(await markRerunRunning(db, organizationId, runId))) return; // the run ended (errored): nothing to do
  if (runId && (await isRerunItemDone(db, { organizationId, runId, traceId, graderId }))) return;
  const [trace, [grader]] = await Promise.all([findGradingTrace(db, organizationId, traceId), findGraderRowsByIds(db, organizationId, [graderId])]);
  const skip = whyNotGradable(trace) ?? (grader ? null : "the grader no longer exists")
    ?? (job.oncePerVersion && (await hasGraderLabelAtVersion(db, organizationId, traceId, graderId, grader!.version)) ? "already graded at this grader version" : null);
  const verdict = skip ? null : await evaluateGrader(grader!, await findGradingSpans(db, organizationId, traceId), judge);
  if (skip) logger.debug("grading skipped", { organizationId, traceId, graderId, reason: skip });
  await db.transaction(async (tx) => {
    if (runId && !(await recordRerunItemDone(tx, { organizationId, runId, traceId, graderId, graded: verdict !== null }))) return;
    if (verdict) await upsertGraderLabel(tx, newId(), { organizationId, traceId, graderId, graderVersion: grader!.version, verdict, source: "live_grader", evaluatedAt: new Date() });
  });
}

export interface GradingWorkerOptions {
  judge?: JudgeOptions;
  /** Outbox poll interval. */
  pollIntervalMs?: number;
  /** Overrides of the grading queue's policy (tests use a short expiry). */
  expireInSeconds?: number;
  batchSize?: number;
}

export const GRADING_QUEUES = [GRADING_QUEUE, GRADING_DEAD_QUEUE];

/** Defines the grading queues (before the job worker starts, so interrupted jobs can be recovered). */
export async function defineGradingQueues(db: Database, options: GradingWorkerOptions = {}): Promise<void> {
  await gradingJobClient(db, { ...GRADING_QUEUE_OPTIONS, ...(options.expireInSeconds ? { expireInSeconds: options.expireInSeconds } : {}) });
}

/** Starts the grading pollers and the live dispatcher on the caller's job worker; returns what stops them. */
export async function workGrading(db: Database, worker: JobWorker, options: GradingWorkerOptions = {}): Promise<() => Promise<void>> {
  const work = { batchSize: options.batchSize ?? 8, pollingIntervalSeconds: 0.5 };
  const handler = (job: ReceivedJob<TGradingJob>) => runGradingJob(db, job.data, options.judge);
  // Two pollers: a batch waiting on a slow judge does not hold up the next one.
  await worker.work(GRADING_QUEUE, handler, work);
  await worker.work(GRADING_QUEUE, handler, work);
  await worker.work<TGradingJob>(GRADING_DEAD_QUEUE, async (job) => {
    logger.error("grading failed after every retry", { ...job.data });
    if (job.data.runId) await markRerunErrored(db, job.data.organizationId, job.data.runId, `Grading trace ${job.data.traceId} with grader ${job.data.graderId} failed after every retry.`);
  });
  const live = startLiveDispatcher(db, { intervalMs: options.pollIntervalMs ?? 1000, onJobs: () => worker.wake(GRADING_QUEUE) });
  return () => live.stop();
}
