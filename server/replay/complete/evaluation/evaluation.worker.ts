// Works the replay-evaluation queue on the process's one job worker (server/workers.ts starts it, so one pg-boss
// worker per process serves grading and replay evaluation alike; docs/graders.md "Job queue").
import type { Database } from "../../../db/client.ts";
import { getEnv } from "../../../env.ts";
import type { JudgeOptions } from "../../../grading/judge.ts";
import type { JobWorker, ReceivedJob } from "../../../jobs/queue.ts";
import { logger } from "../../../logger.ts";
import { EVALUATION_DEAD_QUEUE, EVALUATION_QUEUE, evaluationJobClient, onReplayCompleted, type TEvaluationJob } from "./evaluation.queue.ts";
import { judgeTraceAssertions } from "./trace-assertions.ts";

export const EVALUATION_QUEUES = [EVALUATION_QUEUE, EVALUATION_DEAD_QUEUE];

/** One job: the trace's assertions, judged with the model configured when the job runs. */
export async function runEvaluationJob(db: Database, job: TEvaluationJob, judge?: JudgeOptions): Promise<void> {
  const { organizationId, testRunId, traceId } = job;
  const written = await judgeTraceAssertions(db, organizationId, testRunId, traceId, { model: getEnv().REPRISE_JUDGE_MODEL, options: judge });
  logger.debug("replay assertions evaluated", { organizationId, testRunId, traceId, verdicts: written });
}

/** Defines the evaluation queues (before the job worker starts, so interrupted jobs can be recovered). */
export async function defineEvaluationQueues(db: Database): Promise<void> {
  await evaluationJobClient(db);
}

/** Starts the pollers; returns what stops this process from being woken on new jobs. */
export async function workReplayEvaluation(db: Database, worker: JobWorker, options: { judge?: JudgeOptions } = {}): Promise<() => void> {
  // Batches of 4 traces; two pollers, so a batch waiting on a slow judge does not hold up the next one.
  const work = { batchSize: 4, pollingIntervalSeconds: 0.5 };
  const handler = (job: ReceivedJob<TEvaluationJob>) => runEvaluationJob(db, job.data, options.judge);
  await worker.work(EVALUATION_QUEUE, handler, work);
  await worker.work(EVALUATION_QUEUE, handler, work);
  await worker.work<TEvaluationJob>(EVALUATION_DEAD_QUEUE, async (job) => {
    logger.error("replay assertion evaluation failed after every retry; re-complete the run to try again", { ...job.data });
  });
  return onReplayCompleted(db, () => worker.wake(EVALUATION_QUEUE));
}
