// The replay assertion-evaluation queue (docs/replay.md "Complete"; docs/graders.md "Job queue"): one durable
// job per final replay trace of a completed run, inserted in the transaction that marks the run completed and
// worked by the process's one job worker (server/workers.ts).
import type { Database } from "../../../db/client.ts";
import { deadLetterQueue, jobQueues, type JobToInsert, type QueueOptions } from "../../../jobs/queue.ts";

export const EVALUATION_QUEUE = "replay-evaluation";
/** Jobs whose retries are exhausted land here; the worker logs them (the trace keeps its earlier verdicts). */
export const EVALUATION_DEAD_QUEUE = "replay-evaluation-dead";

export interface TEvaluationJob {
  organizationId: string;
  testRunId: string;
  traceId: string;
}

export const EVALUATION_QUEUE_OPTIONS: QueueOptions = {
  // At most one active job per (organization, run, trace): two evaluations of one replay trace never overlap.
  policy: "singleton",
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  // A trace's LLM-judged assertions share the process's judge slots (REPRISE_JUDGE_CONCURRENCY) with grading,
  // each call up to 60 s per attempt with retries, so a job may run well past grading's 600 s. Longer than
  // that, still; a job of a crashed PostgreSQL server comes back after it (PGlite retries at start).
  expireInSeconds: 1800,
  deadLetter: EVALUATION_DEAD_QUEUE,
};

/**
 * One job per trace. No fixed id: every completion queues anew, as re-completion re-runs evaluation (docs/replay.md,
 * "Complete").
 */
export function evaluationJobs(organizationId: string, testRunId: string, traceIds: string[]): JobToInsert<TEvaluationJob>[] {
  return traceIds.map((traceId) => ({ singletonKey: `${organizationId}:${testRunId}:${traceId}`, data: { organizationId, testRunId, traceId } }));
}

/** The job client with the evaluation queues defined (once per database per process, outside any transaction). */
export const evaluationJobClient = jobQueues(() => [deadLetterQueue(EVALUATION_DEAD_QUEUE), { name: EVALUATION_QUEUE, options: EVALUATION_QUEUE_OPTIONS }]);

const localWakers = new WeakMap<Database, Set<() => void>>();

/** A worker of this process registers how to wake it when a run completes; returns the unregistration. */
export function onReplayCompleted(db: Database, wake: () => void): () => void {
  const set = localWakers.get(db) ?? new Set();
  localWakers.set(db, set.add(wake));
  return () => void set.delete(wake);
}

/** Wakes this process's workers after a completion commits, so they start now instead of at their next poll. */
export function notifyReplayCompleted(db: Database): void {
  for (const wake of localWakers.get(db) ?? []) wake();
}
