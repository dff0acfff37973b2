// Works the alert queues on the process's one job worker (server/workers.ts): the scheduled evaluation and the
// webhook deliveries (docs/alerts.md).
import type { Database } from "../../db/client.ts";
import type { JobWorker, ReceivedJob } from "../../jobs/queue.ts";
import { logger } from "../../logger.ts";
import { alertQueues, DELIVERY_DEAD_QUEUE, DELIVERY_QUEUE, EVALUATE_QUEUE, type TAlertQueueOptions, type TDeliveryJob } from "./alerts.queue.ts";
import { settleEvent } from "./alerts.queries.ts";
import { deliverAlertEvent } from "./deliver.service.ts";
import { evaluateAlerts } from "./evaluate.service.ts";

export interface TAlertWorkerOptions extends TAlertQueueOptions {
  /** pg-boss cron (UTC) of the evaluation; none: evaluated only when a job is sent (tests). */
  cron?: string;
  /** Seconds between the delivery pollers' looks at the queue. */
  pollingIntervalSeconds?: number;
}

/** Defines the queues and the evaluation's schedule (before the job worker starts). */
export async function defineAlertQueues(db: Database, options: TAlertWorkerOptions): Promise<void> {
  const client = await alertQueues(db, options);
  if (options.cron) await client.schedule(EVALUATE_QUEUE, options.cron);
}

export async function workAlerts(db: Database, worker: JobWorker, options: TAlertWorkerOptions): Promise<void> {
  const jobs = await alertQueues(db, options);
  await worker.work(EVALUATE_QUEUE, async () => {
    const result = await evaluateAlerts(db, jobs);
    if (result.fired > 0 || result.resolved > 0) {
      logger.info("alerts evaluated", { ...result });
      worker.wake(DELIVERY_QUEUE);
    }
  }, { pollingIntervalSeconds: 5 });
  await worker.work<TDeliveryJob>(DELIVERY_QUEUE, async (job: ReceivedJob<TDeliveryJob>) => {
    await deliverAlertEvent(db, jobs, job.data, job.retryCount + 1, job.retryLimit);
  }, {
    batchSize: 4,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
  });
  await worker.work<TDeliveryJob>(DELIVERY_DEAD_QUEUE, async (job) => {
    logger.error("an alert webhook failed on every attempt; its delivery log shows why", { ...job.data });
    // The last attempt settled the event; a job that expired instead (its process died) is settled here, so the
    // rule's later events do not wait for it forever.
    await settleEvent(db, job.data.organizationId, job.data.eventId, new Date());
  });
}
