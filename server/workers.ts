// The background workers of one server process, started from start-up (server/startup.ts), never from each
// other: one pg-boss job worker serves every feature's queues (docs/architecture.md "Jobs and grading").
import type { Database } from "./db/client.ts";
import { GRADING_QUEUE } from "./grading/grading.queues.ts";
import { defineGradingQueues, GRADING_QUEUES, workGrading, type GradingWorkerOptions } from "./grading/grading.worker.ts";
import { startJobWorker } from "./jobs/queue.ts";
import { defineRecomputeQueues, workRecompute } from "./insight/cost/recompute.worker.ts";
import { ALERT_QUEUES, alertQueueOptionsFromEnv } from "./insight/alerts/alerts.queue.ts";
import { defineAlertQueues, workAlerts, type TAlertWorkerOptions } from "./insight/alerts/alerts.worker.ts";
import { RECOMPUTE_QUEUES } from "./insight/cost/recompute.queue.ts";
import { defineRollupQueues, ROLLUP_QUEUES, workRollups } from "./insight/dashboard/rollups/rollups.worker.ts";
import { getEnv } from "./env.ts";
import { defineLifecycleQueues, LIFECYCLE_QUEUES, workLifecycle } from "./lifecycle/lifecycle.worker.ts";
import { logger } from "./logger.ts";
import { onReplayCompleted } from "./replay/complete/evaluation/evaluation.queue.ts";
import { defineEvaluationQueues, EVALUATION_QUEUES, workReplayEvaluation } from "./replay/complete/evaluation/evaluation.worker.ts";

export interface WorkersOptions extends GradingWorkerOptions {
  maintenanceIntervalSeconds?: number;
  /** The alert queues' retries and schedule (default: from the environment; docs/alerts.md). */
  alerts?: TAlertWorkerOptions;
}


export interface Workers {
  stop(): Promise<void>;
}

export async function startWorkers(db: Database, options: WorkersOptions = {}): Promise<Workers> {
  await defineGradingQueues(db, options);
  await defineEvaluationQueues(db);
  await defineRecomputeQueues(db);
  await defineLifecycleQueues(db, getEnv().REPRISE_RETENTION_SWEEP_CRON);
  const alerts = options.alerts ?? alertQueueOptionsFromEnv();
  await defineAlertQueues(db, alerts);
  await defineRollupQueues(db);
  const worker = await startJobWorker(db, { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds, schedules: true });
  if (db.sql.kind === "pglite") {
    // One process holds a PGlite data directory, so an active job now was cut off by a crash: retry it.
    const recovered = await worker.recoverInterruptedJobs([...GRADING_QUEUES, ...EVALUATION_QUEUES, ...RECOMPUTE_QUEUES, ...LIFECYCLE_QUEUES, ...ALERT_QUEUES, ...ROLLUP_QUEUES]);
    if (recovered > 0) logger.info("retrying jobs interrupted by a restart", { recovered });
  }
  const stopGrading = await workGrading(db, worker, options);
  const stopWakingEvaluation = await workReplayEvaluation(db, worker, { judge: options.judge });
  await workRecompute(db, worker);
  const stopWakingPurge = await workLifecycle(db, worker);
  await workAlerts(db, worker, alerts);
  await workRollups(db, worker);
  // A completed replay queues grading jobs too: wake the grading pollers as well.
  const stopWakingGrading = onReplayCompleted(db, () => worker.wake(GRADING_QUEUE));
  return {
    async stop() {
      stopWakingEvaluation();
      stopWakingPurge();
      stopWakingGrading();
      await stopGrading();
      await worker.stop();
    },
  };
}
