// Live grading: a completed trace of a function with two live graders gets two
// grader labels; an incomplete trace gets none; replays get none; 20 racing completions of one trace
// call the judge once per grader — both through the real ingestion endpoints and through the
// trace_events outbox written exactly as the completion transaction writes it.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import { sql } from "../db/sql.ts";
import { createGrader, updateGrader } from "../graders/graders.service.ts";
import { ZSaveGraderBody } from "../graders/graders.schemas.ts";
import { gradeTrace } from "./grading.service.ts";
import { startWorkers, type Workers } from "../workers.ts";
import { dispatchCompletionEvents } from "./live.ts";
import { createLimiter } from "./limiter.ts";
import { postExternalSpan, postExternalTrace } from "../ingest/ingest.http.ts";
import { completionPayload, spanPayload } from "../ingest/testing/payloads.ts";

const FN = "support-bot";
let judgeCalls: string[] = [];
let server: http.Server;

const until = async (check: () => Promise<boolean>, timeoutMs = 30_000) => {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe("live grading", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let worker: Workers;
  const graders: Record<string, string> = {};

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        judgeCalls.push(raw);
        const passed = raw.includes("refund approved");
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify({ label: passed, reason: passed ? "polite" : "rude", confidence: "high" }) } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    org = await createTestOrg(db());
    const make = async (body: unknown) => (await createGrader(db(), org.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse(body))).grader.id;
    graders.rule = await make({ traceFunctionKey: FN, name: "mentions refund", kind: "rule", config: { target: { kind: "output" }, check: { op: "contains", value: "refund" } } });
    graders.judge = await make({ traceFunctionKey: FN, name: "polite", kind: "llm_judge", config: { model: "judge-1", instructions: "Pass if polite." } });
    graders.notLive = await make({ traceFunctionKey: FN, name: "manual only", kind: "rule", live: false, config: { check: { op: "noErrors" } } });
    graders.archived = await make({ traceFunctionKey: FN, name: "old", kind: "rule", status: "archived", config: { check: { op: "noErrors" } } });
    graders.otherFn = await make({ traceFunctionKey: "other-fn", name: "x", kind: "rule", config: { check: { op: "noErrors" } } });
    worker = await startWorkers(db(), {
      judge: { baseUrl, timeoutMs: 5_000, maxRetries: 0, maxRetryDelayMs: 10, limiter: createLimiter(4) },
      pollIntervalMs: 100,
      maintenanceIntervalSeconds: 1,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const labelsOf = (traceId: string) =>
    db().prisma.graderLabel.findMany({ where: { organizationId: org.organizationId, traceId }, orderBy: { graderId: "asc" } });

  async function traceWithSpans(status: "pending" | "completed", output: string, extra: { testRunId?: string } = {}) {
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: FN, status, ...extra });
    await createSpan(db(), org.organizationId, trace.id, { name: "bot", output });
    return trace.id;
  }

  /** What the completion transaction does (docs/api/ingestion.md, "Completion"): once, under a lock. */
  async function complete(traceId: string) {
    await db().transaction(async (tx) => {
      const done = await tx.sql.query(sql`UPDATE traces SET status = 'completed', completed_at = now()
        WHERE organization_id = ${org.organizationId}::uuid AND id = ${traceId}::uuid AND status = 'pending' RETURNING id`);
      if (done.length === 0) return;
      await tx.sql.query(sql`INSERT INTO trace_events (organization_id, trace_id, kind) VALUES (${org.organizationId}::uuid, ${traceId}::uuid, 'trace.completed')
        ON CONFLICT (organization_id, trace_id, kind) DO NOTHING`);
    });
  }

  it("a completed trace gets one label per live active grader of its function; an incomplete one gets none", async () => {
    const done = await traceWithSpans("pending", "Your refund approved.");
    const unfinished = await traceWithSpans("pending", "Your refund approved.");
    await complete(done);
    await until(async () => (await labelsOf(done)).length === 2);
    const labels = await labelsOf(done);
    expect(new Set(labels.map((l) => l.graderId))).toEqual(new Set([graders.rule, graders.judge]));
    for (const l of labels) {
      expect(l).toMatchObject({ label: true, source: "live_grader", failureDiagnostic: null });
      expect(l.evaluatedAt).toBeInstanceOf(Date);
    }
    expect(labels.find((l) => l.graderId === graders.judge)).toMatchObject({ labelReason: "polite", labelConfidence: "high" });
    expect(await labelsOf(unfinished)).toHaveLength(0);
    expect(await gradeTrace(db(), org.organizationId, unfinished, [graders.rule])).toEqual({ status: "skipped", reason: "the trace is not completed (status pending)" });
    expect(await labelsOf(unfinished)).toHaveLength(0);
  });

  it("replay traces are never live-graded, and their events are still consumed", async () => {
    const replay = await traceWithSpans("pending", "refund approved", { testRunId: "0b6f5b1e-0000-4000-8000-000000000001" });
    const captured = await traceWithSpans("pending", "no way");
    await complete(replay);
    await complete(captured);
    await until(async () => (await labelsOf(captured)).length === 2);
    expect(await labelsOf(replay)).toHaveLength(0);
    const pending = await db().sql.query(sql`SELECT id FROM trace_events WHERE processed_at IS NULL`);
    expect(pending).toHaveLength(0);
    expect((await labelsOf(captured)).map((l) => l.label)).toEqual([false, false]);
  });

  it("20 racing completions of one trace, with racing dispatchers, call the judge exactly once per grader", async () => {
    const traceId = await traceWithSpans("pending", `refund approved for ${"x".repeat(8)} trace-race-marker`);
    judgeCalls = [];
    await Promise.all([
      ...Array.from({ length: 20 }, () => complete(traceId)),
      ...Array.from({ length: 4 }, () => dispatchCompletionEvents(db())),
    ]);
    await until(async () => (await labelsOf(traceId)).length === 2);
    // Give any duplicate job time to run before counting.
    await new Promise((r) => setTimeout(r, 1500));
    expect(judgeCalls.filter((c) => c.includes("trace-race-marker"))).toHaveLength(1);
    expect(await labelsOf(traceId)).toHaveLength(2);
    const events = await db().sql.query(sql`SELECT id FROM trace_events WHERE trace_id = ${traceId}::uuid`);
    expect(events).toHaveLength(1);
  });

  it("through the real ingestion endpoints: 20 racing requests complete a trace; the judge is called once per grader", async () => {
    const traceId = randomUUID();
    const rootId = randomUUID();
    const root = spanPayload({ traceId, spanId: rootId, name: "bot", traceFunctionKey: FN, output: "refund approved ingest-race-marker" });
    const child = spanPayload({ traceId, parentId: rootId, name: "lookup", traceFunctionKey: FN, output: "order 7" });
    const completion = completionPayload({ traceId, traceFunctionKey: FN, expectedSpanCount: 2 });
    judgeCalls = [];
    const requests = [
      ...Array.from({ length: 10 }, () => call(postExternalTrace, { apiKey: org.apiKey, body: completion })),
      ...Array.from({ length: 5 }, () => call(postExternalSpan, { apiKey: org.apiKey, body: root })),
      ...Array.from({ length: 5 }, () => call(postExternalSpan, { apiKey: org.apiKey, body: child })),
    ];
    const responses = await Promise.all(requests);
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    await until(async () => (await labelsOf(traceId)).length === 2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(judgeCalls.filter((c) => c.includes("ingest-race-marker"))).toHaveLength(1);
    expect((await labelsOf(traceId)).map((l) => l.label)).toEqual([true, true]);
  });

  it("a later grading replaces the grader's label on the trace (one row per grader per trace)", async () => {
    const traceId = await traceWithSpans("completed", "refund approved");
    const first = await gradeTrace(db(), org.organizationId, traceId, [graders.rule, graders.notLive]);
    expect(first.status).toBe("graded");
    const before = await labelsOf(traceId);
    await db().sql.query(sql`UPDATE spans SET raw_span = jsonb_set(raw_span::jsonb, '{span_data,output}', '"denied"')::json WHERE trace_id = ${traceId}::uuid`);
    await new Promise((r) => setTimeout(r, 5));
    await gradeTrace(db(), org.organizationId, traceId, [graders.rule]);
    const after = await labelsOf(traceId);
    expect(after).toHaveLength(2);
    const rule = (ls: typeof after) => ls.find((l) => l.graderId === graders.rule)!;
    expect(rule(before).label).toBe(true);
    expect(rule(after).label).toBe(false);
    expect(rule(after).id).toBe(rule(before).id);
    expect(rule(after).evaluatedAt!.getTime()).toBeGreaterThan(rule(before).evaluatedAt!.getTime());
  });

  it("a grader label names the grader version that produced it", async () => {
    const traceId = await traceWithSpans("completed", "refund approved");
    await gradeTrace(db(), org.organizationId, traceId, [graders.notLive]);
    const v1 = (await labelsOf(traceId)).find((l) => l.graderId === graders.notLive)!;
    expect(v1).toMatchObject({ graderVersion: 1, label: true });
    const edit = ZSaveGraderBody.parse({ traceFunctionKey: FN, name: "manual only", kind: "rule", config: { target: { kind: "output" }, check: { op: "contains", value: "never said" } } });
    expect((await updateGrader(db(), org.organizationId, { userId: org.userId, via: "console" }, graders.notLive, edit)).grader.version).toBe(2);
    await gradeTrace(db(), org.organizationId, traceId, [graders.notLive]);
    expect((await labelsOf(traceId)).find((l) => l.graderId === graders.notLive)).toMatchObject({ graderVersion: 2, label: false });
  });

  it("grading reads only the caller's graders (another organization's grader id is ignored)", async () => {
    const other = await createTestOrg(db(), "Other");
    const foreign = (await createGrader(db(), other.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse({ traceFunctionKey: FN, name: "theirs", kind: "rule", config: { check: { op: "noErrors" } } }))).grader.id;
    const traceId = await traceWithSpans("completed", "ok");
    const result = await gradeTrace(db(), org.organizationId, traceId, [foreign]);
    expect(result).toEqual({ status: "graded", verdicts: [] });
    expect(await labelsOf(traceId)).toHaveLength(0);
  });
});
