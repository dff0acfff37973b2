// The grading queues and their policies (docs/graders.md, "Job queue").
import { deadLetterQueue, jobQueues, type QueueOptions } from "../jobs/queue.ts";

export const GRADING_QUEUE = "grading";
/** Jobs whose retries are exhausted land here; the worker records the failure (a re-run errors). */
export const GRADING_DEAD_QUEUE = "grading-dead";

export interface TGradingJob {
  organizationId: string;
  traceId: string;
  graderId: string;
  runId?: string;
  /** A backfill's job: a trace that already holds this grader's label at its current version is not graded again. */
  oncePerVersion?: boolean;
}

export const GRADING_QUEUE_OPTIONS: QueueOptions = {
  // One active job per (organization, trace, grader): the singleton key.
  policy: "singleton",
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  // Longer than a judge call with its retries; a job of a crashed process comes back after this.
  expireInSeconds: 600,
  deadLetter: GRADING_DEAD_QUEUE,
};

/** The job client with the grading queues defined (once per database per process). */
export const gradingJobClient = jobQueues((options: QueueOptions = GRADING_QUEUE_OPTIONS) => [
  deadLetterQueue(GRADING_DEAD_QUEUE),
  { name: GRADING_QUEUE, options },
]);
