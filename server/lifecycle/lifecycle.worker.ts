// Works the lifecycle queues on the process's one job worker (server/workers.ts): the purge of deleted traces'
// spans, and the retention sweep that pg-boss's schedule sends (docs/operations.md, "Retention").
import type { Database } from "../db/client.ts";
import { deadLetterQueue, jobQueues, type JobWorker, type ReceivedJob } from "../jobs/queue.ts";
import { logger } from "../logger.ts";
import { onPurgeQueued, PURGE_DEAD_QUEUE, PURGE_QUEUE, purgeJobClient, type TPurgeJob } from "./deletion/purge.queue.ts";
import { purgeDeletedTraces } from "./deletion/purge.service.ts";
import { sweepRetention } from "./retention/retention.service.ts";

export const SWEEP_QUEUE = "lifecycle-sweep";
const SWEEP_DEAD_QUEUE = "lifecycle-sweep-dead";

export const LIFECYCLE_QUEUES = [PURGE_QUEUE, PURGE_DEAD_QUEUE, SWEEP_QUEUE, SWEEP_DEAD_QUEUE];

const sweepJobClient = jobQueues(() => [
  deadLetterQueue(SWEEP_DEAD_QUEUE),
  // One sweep at a time across instances; a sweep of a large backlog may run for long.
  { name: SWEEP_QUEUE, options: { policy: "singleton", retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 6 * 3600, deadLetter: SWEEP_DEAD_QUEUE } },
]);

/** Defines the queues and the sweep's schedule (before the job worker starts, so interrupted jobs can be recovered). */
export async function defineLifecycleQueues(db: Database, sweepCron: string): Promise<void> {
  await purgeJobClient(db);
  const client = await sweepJobClient(db);
  await client.schedule(SWEEP_QUEUE, sweepCron);
}

/** Sends a sweep now instead of at the schedule's next time (tests; an operator's catch-up). */
export async function queueRetentionSweep(db: Database): Promise<void> {
  await (await sweepJobClient(db)).insert(SWEEP_QUEUE, [{ data: {} }]);
  for (const wake of sweepListeners.get(db) ?? []) wake();
}

const sweepListeners = new WeakMap<Database, Set<() => void>>();

/** Starts the pollers; returns what stops this process from being woken on queued purges and sweeps. */
export async function workLifecycle(db: Database, worker: JobWorker): Promise<() => void> {
  await worker.work<TPurgeJob>(PURGE_QUEUE, async (job: ReceivedJob<TPurgeJob>) => {
    const purged = await purgeDeletedTraces(db, job.data.organizationId);
    logger.debug("deleted traces purged", { organizationId: job.data.organizationId, ...purged });
  }, { pollingIntervalSeconds: 2 });
  await worker.work(SWEEP_QUEUE, async () => {
    const swept = await sweepRetention(db);
    if (swept.traces > 0 || swept.spanRows > 0) logger.info("retention sweep", { ...swept });
  }, { pollingIntervalSeconds: 30 });
  for (const dead of [PURGE_DEAD_QUEUE, SWEEP_DEAD_QUEUE]) {
    await worker.work(dead, async (job) => logger.error("a lifecycle job failed after every retry; the next sweep tries again", { queue: dead, data: job.data }));
  }
  const stopPurgeWakes = onPurgeQueued(db, () => worker.wake(PURGE_QUEUE));
  const wakes = sweepListeners.get(db) ?? new Set();
  sweepListeners.set(db, wakes);
  const wakeSweep = () => worker.wake(SWEEP_QUEUE);
  wakes.add(wakeSweep);
  return () => {
    stopPurgeWakes();
    wakes.delete(wakeSweep);
  };
}
