// The cost-recompute queue (docs/cost.md, "Recomputing"): one durable job per recompute, worked by the process's
// one job worker (server/workers.ts).
import { deadLetterQueue, jobQueues, type QueueOptions } from "../../jobs/queue.ts";

export const RECOMPUTE_QUEUE = "cost-recompute";
export const RECOMPUTE_DEAD_QUEUE = "cost-recompute-dead";
export const RECOMPUTE_QUEUES = [RECOMPUTE_QUEUE, RECOMPUTE_DEAD_QUEUE];

export interface TRecomputeJob {
  organizationId: string;
  recomputeId: string;
}

const OPTIONS: QueueOptions = {
  // One recompute of an organization at a time: two over overlapping ranges would only repeat each other's writes.
  policy: "singleton",
  retryLimit: 3,
  retryDelay: 10,
  retryBackoff: true,
  expireInSeconds: 3600,
  deadLetter: RECOMPUTE_DEAD_QUEUE,
};

export const recomputeJobClient = jobQueues(() => [deadLetterQueue(RECOMPUTE_DEAD_QUEUE), { name: RECOMPUTE_QUEUE, options: OPTIONS }]);
