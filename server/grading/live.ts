// Live grading (docs/graders.md, "When grading happens": live graders grade captured and seeded traces on completion,
// never replays). Ingestion writes one trace.completed outbox row per completed trace in the completion
// transaction; this moves those rows into grading jobs and marks them processed in one transaction,
// so each completion becomes its jobs exactly once (job ids are deterministic too).
import type { Database, DbClient } from "../db/client.ts";
import { logger } from "../logger.ts";
import { claimCompletionEvents, findOrganizationsWithEvents, type LiveGradingTarget } from "./grading.queries.ts";
import { selectOnlinePasses } from "./online.queries.ts";
import { gradingJobs } from "./grading.service.ts";
import { GRADING_QUEUE, gradingJobClient } from "./grading.queues.ts";

export const LIVE_BATCH = 200;

/**
 * Claims one organization's completion events with the live graders each trace gets: a grader whose online
 * settings leave the trace out (not sampled, or filtered; docs/graders.md, "Online evaluation") gets none.
 */
export async function claimGradingTargets(tx: DbClient, organizationId: string, limit: number, at: Date): Promise<LiveGradingTarget[]> {
  const claimed = await claimCompletionEvents(tx, organizationId, limit, at);
  const checked = claimed.filter((r) => r.graderId !== null && r.online);
  const passes = await selectOnlinePasses(tx, organizationId, checked.map((r) => ({ traceId: r.traceId, graderId: r.graderId! })));
  return claimed.map((r) => (r.graderId !== null && r.online && !passes.has(`${r.traceId}:${r.graderId}`) ? { ...r, graderId: null } : r));
}

/** Moves one batch of completion events into grading jobs; returns how many events it took. */
export async function dispatchCompletionEvents(db: Database, limit = LIVE_BATCH): Promise<{ events: number; jobs: number }> {
  const client = await gradingJobClient(db);
  return db.transaction(async (tx) => {
    // Organization by organization: row locks never span organizations (docs/operations.md, "Citus").
    const rows: LiveGradingTarget[] = [];
    const at = new Date();
    for (const org of await findOrganizationsWithEvents(tx, limit)) {
      if (rows.length >= limit) break;
      rows.push(...(await claimGradingTargets(tx, org, limit - rows.length, at)));
    }
    const graded = rows.filter((r) => r.graderId !== null);
    // An amended trace is graded once more: its jobs get ids of their own.
    const jobs = gradingJobs(graded.map((r) => ({ organizationId: r.organizationId, traceId: r.traceId, graderIds: [r.graderId!], dedupeKey: r.kind === "trace.amended" ? "amended" : "live" })));
    await client.insert(GRADING_QUEUE, jobs, tx);
    return { events: new Set(rows.map((r) => r.eventId)).size, jobs: jobs.length };
  });
}

/** Polls the outbox until stopped; calls onJobs after a batch produced jobs (to wake local workers). */
export function startLiveDispatcher(db: Database, options: { intervalMs: number; onJobs?: () => void }): { stop(): Promise<void> } {
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      try {
        const { events, jobs } = await dispatchCompletionEvents(db);
        if (jobs > 0) options.onJobs?.();
        if (events === LIVE_BATCH) continue;
      } catch (error) {
        logger.error("live grading dispatch failed; retrying", { error });
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, options.intervalMs);
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
