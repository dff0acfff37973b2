// The alert queues (docs/alerts.md, "Evaluation", "Delivery"): the evaluation pg-boss's cron schedule sends (one job
// across instances per tick), and one delivery job per event, retried by pg-boss with exponential backoff; a
// delivery that must wait for an earlier event of its rule is queued again for later (deliver.service.ts).
import type { Database } from "../../db/client.ts";
import { getEnv } from "../../env.ts";
import { deadLetterQueue, jobQueues } from "../../jobs/queue.ts";

export const EVALUATE_QUEUE = "alerts-evaluate";
export const DELIVERY_QUEUE = "alerts-delivery";
export const DELIVERY_DEAD_QUEUE = "alerts-delivery-dead";
export const ALERT_QUEUES = [EVALUATE_QUEUE, DELIVERY_QUEUE, DELIVERY_DEAD_QUEUE];

export interface TDeliveryJob {
  organizationId: string;
  eventId: string;
  /** How many times this event's delivery has waited for an earlier event of its rule (docs/alerts.md, "Delivery"). */
  waits?: number;
}

export interface TAlertQueueOptions {
  /** Attempts after the first. */
  retryLimit: number;
  /** Seconds before the first retry, doubled on each further one. */
  retryDelaySeconds: number;
}

const alertJobClient = jobQueues((o: TAlertQueueOptions) => [
  deadLetterQueue(DELIVERY_DEAD_QUEUE),
  {
    name: DELIVERY_QUEUE,
    options: { policy: "standard", retryLimit: o.retryLimit, retryDelay: o.retryDelaySeconds, retryBackoff: true, expireInSeconds: 60, deadLetter: DELIVERY_DEAD_QUEUE },
  },
  // One evaluation at a time across instances; a rule's row lock keeps even two from firing an episode twice.
  { name: EVALUATE_QUEUE, options: { policy: "singleton", retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 300 } },
]);

/** The alert queues' client; the first call on a database defines the queues with these options. */
export const alertQueues = (db: Database, options: TAlertQueueOptions) => alertJobClient(db, options);

/** The queues' settings from the environment (docs/alerts.md, "Settings"). */
export function alertQueueOptionsFromEnv(): TAlertQueueOptions & { cron: string } {
  const env = getEnv();
  return { cron: env.REPRISE_ALERTS_CRON, retryLimit: env.REPRISE_ALERT_RETRY_LIMIT, retryDelaySeconds: env.REPRISE_ALERT_RETRY_DELAY_SECONDS };
}

/** The client a request uses to queue deliveries (the worker defined the queues with the same settings). */
export const alertQueuesFromEnv = (db: Database) => alertJobClient(db, alertQueueOptionsFromEnv());
