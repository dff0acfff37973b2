// Kill the server mid-re-run: a worker process is killed with SIGKILL while a
// 50-trace re-run is half done; a new process finishes the run, and no trace is graded twice in the
// result: traces recorded done before the kill are not judged again and keep their labels. Runs on
// PGlite (a data directory; recovery at start) and on PostgreSQL (expiry of the dead worker's jobs).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedPostgresDatabase, onPostgres } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { createOrganization } from "../../auth/auth.service.ts";
import { openDatabase, type Database } from "../../db/client.ts";
import { migrate } from "../../db/migrator.ts";
import { sql } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import { createGrader } from "../../graders/graders.service.ts";
import { ZSaveGraderBody } from "../../graders/graders.schemas.ts";
import { GRADING_QUEUE_OPTIONS, gradingJobClient } from "../grading.queues.ts";
import { startRerun } from "./reruns.service.ts";

const EXPIRE_S = 10;
const judged: string[] = [];
let server: http.Server;
let judgeUrl = "";
let storage: { url?: string; dataDir?: string; drop: () => Promise<void> };

const open = () => openDatabase(storage.url ? { url: storage.url, maxConnections: 4 } : { dataDir: storage.dataDir });

function startChild(extra: Record<string, unknown> = {}): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null>; output: () => string } {
  const args = JSON.stringify({ url: storage.url, dataDir: storage.dataDir, judgeUrl, expireInSeconds: EXPIRE_S, ...extra });
  // One process (tsx as a loader, not its CLI wrapper), so SIGKILL hits the worker itself.
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("server/grading/reruns/rerun-crash.child.ts"), args], { env: { ...process.env, REPRISE_LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (out += c));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", () => out.includes("ready") && resolve());
    child.on("exit", () => reject(new Error(`child exited before ready: ${out}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, exited: new Promise((r) => child.on("exit", (code) => r(code))), output: () => out };
}

describe("a re-run survives a killed server", () => {
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        judged.push(/summary of ([0-9a-f-]{36})/.exec(raw)?.[1] ?? "?");
        setTimeout(() => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ choices: [{ message: { content: '{"label": true, "reason": "ok"}' } }] }));
        }, 100);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    judgeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    if (onPostgres) {
      const pg = await createMigratedPostgresDatabase();
      storage = { url: pg.url, drop: pg.drop };
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-crash-"));
      storage = { dataDir: dir, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    }
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await storage?.drop();
  });

  async function setUp(db: Database) {
    await migrate(db.sql);
    const org = await createOrganization(db, { name: "Crash", email: `crash-${newId()}@example.com`, password: "correct horse battery" });
    const grader = (await createGrader(db, org.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse({ traceFunctionKey: "fn", name: "judge", kind: "llm_judge", live: false, config: { model: "m", instructions: "ok?" } }))).grader.id;
    const datasetId = newId();
    await db.prisma.dataset.create({ data: { id: datasetId, organizationId: org.organizationId, traceFunctionKey: "fn", name: "crash" } });
    await db.prisma.datasetGrader.create({ data: { organizationId: org.organizationId, datasetId, graderId: grader } });
    for (let i = 0; i < 50; i++) {
      const t = await createTrace(db, org.organizationId, { traceFunctionKey: "fn" });
      await createSpan(db, org.organizationId, t.id, { name: "root", output: `summary of ${t.id}` });
      await db.prisma.datasetTrace.create({ data: { datasetId, organizationId: org.organizationId, traceId: t.id } });
    }
    // The queue as a server configured for a short job expiry defines it (PostgreSQL recovers by expiry).
    await gradingJobClient(db, { ...GRADING_QUEUE_OPTIONS, expireInSeconds: EXPIRE_S });
    const { run } = await startRerun(db, org.organizationId, datasetId);
    return { organizationId: org.organizationId, graderId: grader, runId: run.id };
  }

  const doneTraces = async (db: Database, runId: string) =>
    (await db.sql.query<{ traceId: string }>(sql`SELECT trace_id AS "traceId" FROM grader_rerun_items WHERE run_id = ${runId}::uuid GROUP BY trace_id HAVING bool_and(done_at IS NOT NULL)`)).map((r) => r.traceId);
  const labelTimes = async (db: Database, graderId: string) =>
    new Map((await db.prisma.graderLabel.findMany({ where: { graderId }, select: { traceId: true, evaluatedAt: true } })).map((l) => [l.traceId, l.evaluatedAt!.getTime()]));

  it("finishes after a restart without grading a recorded trace twice", async () => {
    let db = await open();
    const { graderId, runId } = await setUp(db);
    if (!storage.url) await db.close();

    const first = startChild();
    await first.ready;
    while (judged.length < 15) await new Promise((r) => setTimeout(r, 20));
    first.child.kill("SIGKILL");
    await first.exited;

    if (!storage.url) db = await open();
    const before = new Set(await doneTraces(db, runId));
    const timesBefore = await labelTimes(db, graderId);
    const [mid] = await db.sql.query<{ status: string; completed: number }>(sql`SELECT status, completed_traces AS completed FROM grader_reruns WHERE id = ${runId}::uuid`);
    expect(mid.status).toBe("running");
    expect(mid.completed).toBe(before.size);
    expect(before.size).toBeGreaterThan(0);
    expect(before.size).toBeLessThan(50);
    if (!storage.url) await db.close();

    judged.length = 0;
    const second = startChild({ exitWhenRunDone: runId });
    expect(await second.exited, second.output()).toBe(0);

    if (!storage.url) db = await open();
    const [run] = await db.sql.query<{ status: string; tracesGraded: number; gradersRun: number; completed: number }>(sql`
      SELECT status, traces_graded AS "tracesGraded", graders_run AS "gradersRun", completed_traces AS completed FROM grader_reruns WHERE id = ${runId}::uuid`);
    expect(run).toEqual({ status: "completed", tracesGraded: 50, gradersRun: 1, completed: 50 });
    const after = await labelTimes(db, graderId);
    expect(after.size).toBe(50);
    // Traces recorded done before the kill: not judged again, labels untouched.
    for (const traceId of before) {
      expect(judged).not.toContain(traceId);
      expect(after.get(traceId)).toBe(timesBefore.get(traceId));
    }
    // Every other trace was judged after the restart.
    const all = new Set([...before, ...judged]);
    expect(all.size).toBe(50);
    await db.close();
  }, 180_000);
});
