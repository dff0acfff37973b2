// The durable job queue: pg-boss on the application's own database (PostgreSQL or embedded PGlite,
// through toBossDb). Jobs are rows, so they survive restarts; pg-boss retries failed jobs with
// exponential backoff, and the "singleton" policy lets only one job per singleton key be active at a
// time (a unique index in pg-boss's schema), which is how grading never runs twice concurrently for
// the same (trace, grader). See docs/graders.md, "Job queue".
import PgBoss from "pg-boss";
import type { Database, DbClient } from "../db/client.ts";
import { logger } from "../logger.ts";
import { toBossDb } from "./boss-db.ts";
import { withMigrationLock } from "../db/migrator.ts";

export const BOSS_SCHEMA = "pgboss";

export interface QueueOptions {
  /** "singleton": at most one active job per singletonKey. */
  policy: "standard" | "singleton";
  retryLimit: number;
  /** Seconds before the first retry; doubled on each further retry when retryBackoff. */
  retryDelay: number;
  retryBackoff: boolean;
  /** An active job older than this is failed (and retried): how a job of a crashed process comes back. */
  expireInSeconds: number;
  /** Queue that receives jobs whose retries are exhausted. */
  deadLetter?: string;
}

export interface JobToInsert<T> {
  /** A deterministic id makes the insert idempotent (pg-boss inserts ON CONFLICT DO NOTHING). */
  id?: string;
  data: T;
  singletonKey?: string;
  /** Not fetched before this instant (a job that waits for another). */
  startAfter?: Date;
}

export interface ReceivedJob<T> {
  id: string;
  name: string;
  data: T;
  retryCount: number;
  retryLimit: number;
}

export interface WorkOptions {
  batchSize?: number;
  pollingIntervalSeconds?: number;
}

/** Inserting and defining jobs: no timers, safe to use from request handlers. */
export interface JobClient {
  readonly boss: PgBoss;
  defineQueue(name: string, options: QueueOptions): Promise<void>;
  /** Inserts jobs; with `tx` they commit or roll back with the caller's transaction (outbox pattern). */
  insert<T extends object>(queue: string, jobs: JobToInsert<T>[], tx?: DbClient): Promise<void>;
  /** Sends a job to the queue on a cron schedule (UTC), replacing the queue's schedule; a worker started with `schedules` sends it. */
  schedule(queue: string, cron: string): Promise<void>;
}

const clients = new WeakMap<Database, Promise<JobClient>>();

/** The process's job client for a database (created, and pg-boss's schema installed, on first use). */
export function jobClientFor(db: Database): Promise<JobClient> {
  let client = clients.get(db);
  if (!client) {
    client = openJobClient(db);
    clients.set(db, client);
    client.catch(() => clients.delete(db));
  }
  return client;
}

export interface QueueDefinition {
  name: string;
  options: QueueOptions;
}

/** The dead-letter queue of a feature's queue: jobs whose retries are exhausted land there, for the feature to record. */
export const deadLetterQueue = (name: string): QueueDefinition => ({
  name,
  options: { policy: "standard", retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
});

/**
 * A feature's job client: `define` names its queues (a dead-letter queue before the queue that sends to it),
 * defined once per database per process, outside any transaction, before the client is handed out.
 */
export function jobQueues<A extends unknown[]>(define: (...args: A) => QueueDefinition[]): (db: Database, ...args: A) => Promise<JobClient> {
  const defined = new WeakMap<Database, Promise<JobClient>>();
  return (db, ...args) => {
    let ready = defined.get(db);
    if (!ready) {
      ready = (async () => {
        const client = await jobClientFor(db);
        for (const queue of define(...args)) await client.defineQueue(queue.name, queue.options);
        return client;
      })();
      defined.set(db, ready);
      ready.catch(() => defined.delete(db));
    }
    return ready;
  };
}

async function openJobClient(db: Database): Promise<JobClient> {
  const boss = new PgBoss({ db: toBossDb(db.sql, db.sql.kind), schema: BOSS_SCHEMA, supervise: false, schedule: false, migrate: true } as PgBoss.ConstructorOptions);
  boss.on("error", (error) => logger.error("job queue error", { error }));
  // pg-boss installs its schema on first start; two instances starting together would race on it.
  await withMigrationLock(db.sql, () => boss.start());
  return {
    boss,
    async defineQueue(name, options) {
      // Creating a queue creates its partition table: instances starting together would deadlock.
      await withMigrationLock(db.sql, async () => {
        await boss.createQueue(name, { name, ...options });
        // createQueue keeps an existing queue as it is; apply changed settings too.
        await boss.updateQueue(name, { name, ...options });
      });
    },
    async insert(queue, jobs, tx) {
      if (jobs.length === 0) return;
      const rows = jobs.map((j) => ({ id: j.id, name: queue, data: j.data, singletonKey: j.singletonKey, startAfter: j.startAfter }));
      if (tx) await boss.insert(rows, { db: toBossDb(tx.sql, db.sql.kind) });
      else await boss.insert(rows);
    },
    async schedule(queue, cron) {
      await boss.schedule(queue, cron, {}, { tz: "UTC" });
    },
  };
}

export interface WorkerOptions {
  /** Seconds between maintenance runs (expiring jobs of dead workers, archiving). */
  maintenanceIntervalSeconds?: number;
  /** Runs pg-boss's timekeeper, which sends the jobs of cron schedules (JobClient.schedule) when they fall due. */
  schedules?: boolean;
}

/** Runs handlers for queues. Owns pg-boss's maintenance timers; stop() ends them and waits for running jobs. */
export interface JobWorker {
  work<T>(queue: string, handler: (job: ReceivedJob<T>) => Promise<void>, options?: WorkOptions): Promise<string>;
  /** Wakes this process's workers of a queue now instead of at their next poll. */
  wake(queue: string): void;
  /**
   * Fails every active job of the queues now, so they are retried. Only correct when no other process
   * can be working on them: embedded PGlite, whose data directory one process holds at a time.
   */
  recoverInterruptedJobs(queues: string[]): Promise<number>;
  stop(): Promise<void>;
}

export async function startJobWorker(db: Database, options: WorkerOptions = {}): Promise<JobWorker> {
  const bossDb = toBossDb(db.sql, db.sql.kind);
  const boss = new PgBoss({
    db: bossDb,
    schema: BOSS_SCHEMA,
    supervise: true,
    schedule: options.schedules ?? false,
    migrate: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  } as PgBoss.ConstructorOptions);
  boss.on("error", (error) => logger.error("job worker error", { error }));
  // pg-boss installs its schema on first start; two instances starting together would race on it.
  await withMigrationLock(db.sql, () => boss.start());
  const workerIds = new Map<string, string[]>();
  return {
    async work(queue, handler, workOptions = {}) {
      const id = await boss.work(
        queue,
        { batchSize: workOptions.batchSize ?? 1, pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 0.5, includeMetadata: true },
        (jobs) => runBatch(boss, queue, jobs as unknown as ReceivedJob<never>[], handler as (job: ReceivedJob<never>) => Promise<void>),
      );
      workerIds.set(queue, [...(workerIds.get(queue) ?? []), id]);
      return id;
    },
    wake(queue) {
      for (const id of workerIds.get(queue) ?? []) boss.notifyWorker(id);
    },
    async recoverInterruptedJobs(queues) {
      let count = 0;
      for (const queue of queues) {
        const rows = (await toBossDb(db.sql, db.sql.kind).executeSql(
          `SELECT id FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state = 'active'`,
          [queue],
        )).rows as { id: string }[];
        if (rows.length === 0) continue;
        for (const { id } of rows) await boss.fail(queue, id, { message: "interrupted: the server stopped while the job ran" });
        count += rows.length;
      }
      return count;
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, close: false });
      await bossDb.settled();
    },
  };
}

/**
 * Runs a fetched batch concurrently and settles each job on its own (pg-boss would otherwise fail
 * the whole batch for one error). Jobs left active are completed by pg-boss when this resolves.
 */
async function runBatch<T>(boss: PgBoss, queue: string, jobs: ReceivedJob<T>[], handler: (job: ReceivedJob<T>) => Promise<void>): Promise<void> {
  await Promise.all(
    jobs.map(async (job) => {
      try {
        await handler(job);
        await boss.complete(queue, job.id);
      } catch (error) {
        logger.warn("job failed", { queue, jobId: job.id, retryCount: job.retryCount, error });
        await boss.fail(queue, job.id, { message: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
      }
    }),
  );
}
