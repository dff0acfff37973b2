// The rollup job's queue on the process's one job worker (server/workers.ts): pg-boss's cron sends one job a
// minute across instances (a singleton queue), and each organization's state row lock keeps even two runs apart
// (docs/scaling.md, "Dashboard").
import type { Database } from "../../../db/client.ts";
import type { JobWorker } from "../../../jobs/queue.ts";
import { jobQueues } from "../../../jobs/queue.ts";
import { logger } from "../../../logger.ts";
import { refreshRollups } from "./rollups.service.ts";

export const ROLLUP_QUEUE = "dashboard-rollups";
export const ROLLUP_QUEUES = [ROLLUP_QUEUE];
/** Every minute: hours settle an hour and some minutes after they end (rollups.service.ts, rolledToAt). */
export const ROLLUP_CRON = "* * * * *";

const rollupJobClient = jobQueues(() => [
  // A first run over a large organization may take minutes; one run at a time.
  { name: ROLLUP_QUEUE, options: { policy: "singleton", retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 3600 } },
]);

export async function defineRollupQueues(db: Database, cron: string | undefined = ROLLUP_CRON): Promise<void> {
  const client = await rollupJobClient(db);
  if (cron) await client.schedule(ROLLUP_QUEUE, cron);
}

export async function workRollups(db: Database, worker: JobWorker): Promise<void> {
  await worker.work(ROLLUP_QUEUE, async () => {
    const results = await refreshRollups(db);
    const hours = results.reduce((n, r) => n + r.hours, 0);
    if (hours > 0) logger.info("dashboard rollups refreshed", { organizations: results.length, hours });
  }, { pollingIntervalSeconds: 10 });
}
