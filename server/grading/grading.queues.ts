// The grading queues and their policies (docs/graders.md, "Job queue").
import type { Database } from "../db/client.ts";
import { jobClientFor, type JobClient, type QueueOptions } from "../jobs/queue.ts";

export const GRADING_QUEUE = "grading";
/** Jobs whose retries are exhausted land here; the worker records the failure (a re-run errors). */
export const GRADING_DEAD_QUEUE = "grading-dead";

export interface TGradingJob {
  organizationId: string;
  traceId: string;
  graderId: string;
  runId?: string;
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

const defined = new WeakMap<Database, Promise<JobClient>>();

/** The job client with the grading queues defined (once per database per process). */
export function gradingJobClient(db: Database, options: QueueOptions = GRADING_QUEUE_OPTIONS): Promise<JobClient> {
  let ready = defined.get(db);
  if (!ready) {
    ready = (async () => {
      const client = await jobClientFor(db);
      await client.defineQueue(GRADING_DEAD_QUEUE, { policy: "standard", retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 });
      await client.defineQueue(GRADING_QUEUE, options);
      return client;
    })();
    defined.set(db, ready);
    ready.catch(() => defined.delete(db));
  }
  return ready;
}
