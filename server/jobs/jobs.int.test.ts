// The durable job queue: jobs survive a dead worker, retry with backoff, and
// never run twice at once for one singleton key. On PGlite and PostgreSQL (REPRISE_TEST_DB).
import { afterEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "../../test/harness.ts";
import { BOSS_SCHEMA, jobClientFor, startJobWorker, type JobWorker } from "./queue.ts";
import { raw, sql } from "../db/sql.ts";
import { toBossDb } from "./boss-db.ts";

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("job queue", () => {
  const db = useTestDatabase();
  let worker: JobWorker | undefined;
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  const base = { policy: "standard" as const, retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 };

  it("runs a job again when the worker that held it died (restart recovery, and expiry)", async () => {
    const client = await jobClientFor(db());
    await client.defineQueue("t-orphan", base);
    await client.defineQueue("t-expire", { ...base, expireInSeconds: 1 });
    await client.insert("t-orphan", [{ data: { n: 1 } }]);
    await client.insert("t-expire", [{ data: { n: 2 } }]);
    // A worker fetched both (they are now active) and then its process died without finishing them.
    expect(await client.boss.fetch("t-orphan")).toHaveLength(1);
    expect(await client.boss.fetch("t-expire")).toHaveLength(1);

    worker = await startJobWorker(db(), { maintenanceIntervalSeconds: 1 });
    const ran: number[] = [];
    await worker.work<{ n: number }>("t-orphan", async (job) => void ran.push(job.data.n));
    await worker.work<{ n: number }>("t-expire", async (job) => void ran.push(job.data.n));
    // Restart recovery fails the orphan at once (so it is retried); the other comes back by expiry.
    expect(await worker.recoverInterruptedJobs(["t-orphan"])).toBe(1);
    await until(() => ran.length === 2);
    expect(ran.sort()).toEqual([1, 2]);
  });

  it("retries a failing job with exponential backoff", async () => {
    const client = await jobClientFor(db());
    await client.defineQueue("t-retry", { ...base, retryBackoff: true });
    await client.insert("t-retry", [{ data: {} }]);
    worker = await startJobWorker(db());
    const attempts: number[] = [];
    await worker.work("t-retry", async () => {
      attempts.push(Date.now());
      if (attempts.length < 3) throw new Error("transient");
    });
    await until(() => attempts.length === 3);
    const [a, b, c] = attempts;
    // Backoff: the second wait is longer than the first (1 s, then about 2 s; both at least 1 s).
    expect(b - a).toBeGreaterThanOrEqual(900);
    expect(c - b).toBeGreaterThan(b - a);
    const rows = await db().sql.query<{ state: string }>(sql`SELECT state::text FROM pgboss.job WHERE name = 't-retry'`);
    await until(async () => (await db().sql.query<{ state: string }>(sql`SELECT state::text FROM pgboss.job WHERE name = 't-retry'`))[0]?.state === "completed");
    expect(rows).toHaveLength(1);
  });

  it("never runs two jobs with the same singleton key at once, while other keys run in parallel", async () => {
    const client = await jobClientFor(db());
    await client.defineQueue("t-single", { ...base, policy: "singleton" });
    const jobs = ["a", "a", "a", "b", "b", "c"].map((key, i) => ({ data: { key, i }, singletonKey: key }));
    await client.insert("t-single", jobs);
    worker = await startJobWorker(db());
    const active = new Map<string, number>();
    let maxSameKey = 0;
    let maxOverall = 0;
    let done = 0;
    const handler = async (job: { data: { key: string } }) => {
      const k = job.data.key;
      active.set(k, (active.get(k) ?? 0) + 1);
      maxSameKey = Math.max(maxSameKey, active.get(k)!);
      maxOverall = Math.max(maxOverall, [...active.values()].reduce((s, v) => s + v, 0));
      await new Promise((r) => setTimeout(r, 150));
      active.set(k, active.get(k)! - 1);
      done++;
    };
    // Two workers with batches of 4, as two server processes would poll.
    await worker.work("t-single", handler, { batchSize: 4, pollingIntervalSeconds: 0.5 });
    await worker.work("t-single", handler, { batchSize: 4, pollingIntervalSeconds: 0.5 });
    await until(() => done === 6);
    expect(maxSameKey).toBe(1);
    expect(maxOverall).toBeGreaterThan(1);
  });

  it("inserts jobs inside a caller's transaction: a rollback leaves no job", async () => {
    const client = await jobClientFor(db());
    await client.defineQueue("t-tx", base);
    await expect(
      db().transaction(async (tx) => {
        await client.insert("t-tx", [{ data: { x: 1 } }], tx);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await db().transaction((tx) => client.insert("t-tx", [{ id: "00000000-0000-4000-8000-000000000001", data: { x: 2 } }], tx));
    // The same id again is a no-op (idempotent enqueue).
    await client.insert("t-tx", [{ id: "00000000-0000-4000-8000-000000000001", data: { x: 3 } }]);
    const rows = await db().sql.query<{ data: { x: number } }>(sql`SELECT data FROM ${raw(BOSS_SCHEMA)}.job WHERE name = 't-tx'`);
    expect(rows.map((r) => r.data.x)).toEqual([2]);
  });
});


describe("the pg-boss database adapter", () => {
  const db = useTestDatabase();

  it("settles only after every statement it started, so stopping a worker never leaves one to outlive the database", async () => {
    const bossDb = toBossDb(db().sql, db().sql.kind);
    let finished = false;
    void bossDb.executeSql("SELECT pg_sleep(0.3)").then(() => (finished = true));
    const failing = bossDb.executeSql("SELECT * FROM no_such_table_here").catch(() => "failed");
    await bossDb.settled();
    expect(finished).toBe(true);
    expect(await failing).toBe("failed");
    await bossDb.settled(); // nothing running: resolves at once
  });
});
