// The lifecycle queue (docs/operations.md, "Deleting data"): a job purges the spans of one organization's deleted
// traces; the scheduled sweep (retention/) also purges what an interrupted job left. One active job per
// organization (the singleton key), so two never race over the same rows.
import type { Database } from "../../db/client.ts";
import { deadLetterQueue, jobQueues, type QueueOptions } from "../../jobs/queue.ts";
import { logger } from "../../logger.ts";

export const PURGE_QUEUE = "lifecycle-purge";
export const PURGE_DEAD_QUEUE = "lifecycle-purge-dead";

export interface TPurgeJob {
  organizationId: string;
}

const PURGE_QUEUE_OPTIONS: QueueOptions = {
  policy: "singleton",
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 3600,
  deadLetter: PURGE_DEAD_QUEUE,
};

export const purgeJobClient = jobQueues(() => [deadLetterQueue(PURGE_DEAD_QUEUE), { name: PURGE_QUEUE, options: PURGE_QUEUE_OPTIONS }]);

const listeners = new WeakMap<Database, Set<() => void>>();

/** Queues the purge of an organization's deleted traces; a failure only delays it to the next sweep. */
export async function queuePurge(db: Database, organizationId: string): Promise<void> {
  try {
    const client = await purgeJobClient(db);
    await client.insert<TPurgeJob>(PURGE_QUEUE, [{ data: { organizationId }, singletonKey: organizationId }]);
    for (const wake of listeners.get(db) ?? []) wake();
  } catch (error) {
    logger.warn("could not queue the purge of deleted traces; the next sweep purges them", { organizationId, error });
  }
}

/** Hears of queued purges in this process (the worker wakes its poller). */
export function onPurgeQueued(db: Database, wake: () => void): () => void {
  const set = listeners.get(db) ?? new Set();
  listeners.set(db, set);
  set.add(wake);
  return () => set.delete(wake);
}
