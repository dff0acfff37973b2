// Works the cost-recompute queue on the process's one job worker (server/workers.ts starts it).
import type { Database } from "../../db/client.ts";
import type { JobWorker, ReceivedJob } from "../../jobs/queue.ts";
import { logger } from "../../logger.ts";
import { RECOMPUTE_DEAD_QUEUE, RECOMPUTE_QUEUE, recomputeJobClient, type TRecomputeJob } from "./recompute.queue.ts";
import { runRecompute } from "./recompute.service.ts";

export async function defineRecomputeQueues(db: Database): Promise<void> {
  await recomputeJobClient(db);
}

export async function workRecompute(db: Database, worker: JobWorker): Promise<void> {
  await worker.work(RECOMPUTE_QUEUE, (job: ReceivedJob<TRecomputeJob>) => runRecompute(db, job.data), { pollingIntervalSeconds: 1 });
  await worker.work<TRecomputeJob>(RECOMPUTE_DEAD_QUEUE, async (job) => {
    logger.error("cost recompute failed after every retry; start it again", { ...job.data });
  });
}
