// Backfills (docs/graders.md, "Online evaluation"; docs/api/graders.md, "Backfills"): the estimate counts the
// sampled and filtered past traces in the range and prices the judge's tokens (or says unpriced); the run grades
// exactly those, with progress, never a trace twice for one grader version; a cancel stops it; bad input is a 400,
// another organization's ids a 404, a viewer's key a 403.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { createApiKeyForUser } from "../../auth/auth.service.ts";
import { createUser } from "../../auth/settings/settings.service.ts";
import { sql } from "../../db/sql.ts";
import { createGrader, updateGrader } from "../../graders/graders.service.ts";
import { ZSaveGraderBody } from "../../graders/graders.schemas.ts";
import { signedInCaller } from "../../trpc/testing.ts";
import { startWorkers, type Workers } from "../../workers.ts";
import { createLimiter } from "../limiter.ts";
import { isSampled } from "../online-sampling.ts";
import { getBackfillEstimate, getBackfillRun, postBackfill, postBackfillCancel } from "./backfill.http.ts";
import { ZBackfillOrNullResponse, ZBackfillResponse, ZEstimateResponse, type TBackfill } from "./backfill.schemas.ts";

const FN = "support";
const DAY = 86_400_000;
const now = Date.now();
const range = { from: new Date(now - 10 * DAY).toISOString(), to: new Date(now - DAY).toISOString() };

describe("grader backfills", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let viewerKey: string;
  let viewerEmail: string;
  let worker: Workers;
  let server: http.Server;
  const judged: string[] = [];
  let judgeDelayMs = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        judged.push(/answer of ([0-9a-f-]{36})/.exec(raw)?.[1] ?? "?");
        setTimeout(() => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ choices: [{ message: { content: '{"label": true, "reason": "fine"}' } }] }));
        }, judgeDelayMs);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    org = await createTestOrg(db());
    other = await createTestOrg(db(), "Other");
    const owner = { organizationId: org.organizationId, userId: org.userId, role: "owner" as const };
    viewerEmail = `viewer-${Date.now()}@example.com`;
    const viewer = await createUser(db(), owner, { email: viewerEmail, password: "correct horse battery", role: "viewer" });
    viewerKey = (await createApiKeyForUser(db(), { organizationId: org.organizationId, userId: viewer.id }, { scope: "admin" })).apiKey;
    worker = await startWorkers(db(), {
      judge: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, timeoutMs: 5_000, maxRetries: 0, maxRetryDelayMs: 10, limiter: createLimiter(2) },
      pollIntervalMs: 200,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const make = async (config: object, o: { kind?: "rule" | "llm_judge"; organizationId?: string; fn?: string } = {}) =>
    (await createGrader(db(), o.organizationId ?? org.organizationId, { userId: null, via: "rest" },
      ZSaveGraderBody.parse({ traceFunctionKey: o.fn ?? FN, name: `g-${Math.random()}`, kind: o.kind ?? "llm_judge", live: false, config }))).grader.id;
  async function trace(o: { daysAgo: number; tags?: string[]; status?: "completed" | "pending"; testRunId?: string; fn?: string }) {
    const t = await createTrace(db(), org.organizationId, {
      traceFunctionKey: o.fn ?? FN, status: o.status ?? "completed", startedAt: new Date(now - o.daysAgo * DAY), metadata: o.tags ? { tags: o.tags } : {}, testRunId: o.testRunId,
    });
    await createSpan(db(), org.organizationId, t.id, { name: "root", input: "question", output: `answer of ${t.id}` });
    return t.id;
  }
  const estimate = (id: string, query: Record<string, string> = range, apiKey = org.apiKey) =>
    call((r, c) => getBackfillEstimate(r, c!), { apiKey, params: { id }, path: `/api/sdk/graders/${id}/backfill/estimate?${new URLSearchParams(query)}` });
  const start = (id: string, body: unknown = range, apiKey = org.apiKey) =>
    call((r, c) => postBackfill(r, c!), { apiKey, method: "POST", body, params: { id }, path: `/api/sdk/graders/${id}/backfill` });
  const get = (id: string, runId?: string, apiKey = org.apiKey) =>
    call((r, c) => getBackfillRun(r, c!), { apiKey, params: { id }, path: `/api/sdk/graders/${id}/backfill${runId ? `?runId=${runId}` : ""}` });
  const cancel = (id: string, runId: string, apiKey = org.apiKey) =>
    call((r, c) => postBackfillCancel(r, c!), { apiKey, method: "POST", body: { runId }, params: { id }, path: `/api/sdk/graders/${id}/backfill/cancel` });
  async function waitUntilEnded(id: string, runId: string, seen: TBackfill[] = []): Promise<TBackfill> {
    for (let i = 0; i < 600; i++) {
      const b = ZBackfillOrNullResponse.parse((await get(id, runId)).body).backfill!;
      seen.push(b);
      if (b.status !== "pending" && b.status !== "running") return b;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the backfill did not end");
  }
  const labelled = async (graderId: string) =>
    (await db().prisma.graderLabel.findMany({ where: { organizationId: org.organizationId, graderId }, select: { traceId: true, graderVersion: true } }));

  it("estimates the sampled, filtered traces of the range and their judge cost, then grades exactly those once, with progress", async () => {
    const graderId = await make({ model: "gpt-4o-mini", instructions: "Is the answer fine?", online: { sampleRate: 50, filter: { tags: ["vip"] } } });
    const vip = await Promise.all(Array.from({ length: 40 }, (_, i) => trace({ daysAgo: 2 + (i % 7), tags: ["vip", "eu"] })));
    await Promise.all([
      ...Array.from({ length: 8 }, () => trace({ daysAgo: 3, tags: ["eu"] })), // filtered out
      ...Array.from({ length: 8 }, () => trace({ daysAgo: 20, tags: ["vip"] })), // before the range
      ...Array.from({ length: 4 }, () => trace({ daysAgo: 0.5, tags: ["vip"] })), // after it
      ...Array.from({ length: 4 }, () => trace({ daysAgo: 3, tags: ["vip"], status: "pending" })), // not completed
      ...Array.from({ length: 4 }, () => trace({ daysAgo: 3, tags: ["vip"], testRunId: "0b6f5b1e-0000-4000-8000-000000000001" })), // replays
      ...Array.from({ length: 4 }, () => trace({ daysAgo: 3, tags: ["vip"], fn: "another-fn" })), // another function
    ]);
    const expected = vip.filter((id) => isSampled(id, 50)).sort();
    expect(expected.length).toBeGreaterThan(5);

    const est = await estimate(graderId);
    expect(est.status).toBe(200);
    const { estimate: e } = ZEstimateResponse.parse(est.body);
    expect(e).toMatchObject({ graderId, graderVersion: 1, traces: expected.length, alreadyGraded: 0, sampleRate: 50 });
    expect(e.judge).toMatchObject({ model: "gpt-4o-mini", priced: true, outputTokens: expected.length * 60 });
    // gpt-4o-mini's shipped price: $0.15 per million input tokens, $0.60 per million output tokens.
    expect(e.judge!.inputTokens).toBeGreaterThan(expected.length * 100);
    expect(e.judge!.costUsd).toBeCloseTo((e.judge!.inputTokens * 0.15 + e.judge!.outputTokens * 0.6) / 1e6, 6);
    expect(judged).toHaveLength(0);

    judged.length = 0;
    const started = await start(graderId);
    expect(started.status).toBe(200);
    const { backfill } = ZBackfillResponse.parse(started.body);
    expect(backfill.progress.total).toBe(e.traces);
    expect(backfill.estimate).toEqual(e);
    const seen: TBackfill[] = [];
    const ended = await waitUntilEnded(graderId, backfill.id, seen);
    expect(ended).toMatchObject({ status: "completed", progress: { done: expected.length, total: expected.length }, tracesGraded: expected.length });
    const dones = seen.map((b) => b.progress.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
    expect([...judged].sort()).toEqual(expected);
    expect((await labelled(graderId)).map((l) => l.traceId).sort()).toEqual(expected);

    // Once more over the same range: everything is graded at this version already.
    const again = ZEstimateResponse.parse((await estimate(graderId)).body).estimate;
    expect(again).toMatchObject({ traces: 0, alreadyGraded: expected.length, judge: { inputTokens: 0, outputTokens: 0, costUsd: 0 } });
    const second = ZBackfillResponse.parse((await start(graderId)).body).backfill;
    expect(second).toMatchObject({ status: "completed", progress: { done: 0, total: 0 } });
    expect(judged).toHaveLength(expected.length);

    // A new version of the grader may grade them again.
    await updateGrader(db(), org.organizationId, { userId: null, via: "rest" }, graderId,
      ZSaveGraderBody.parse({ traceFunctionKey: FN, name: "renamed", kind: "llm_judge", config: { model: "gpt-4o-mini", instructions: "Is it fine?", online: { sampleRate: 50, filter: { tags: ["vip"] } } } }));
    expect(ZEstimateResponse.parse((await estimate(graderId)).body).estimate).toMatchObject({ graderVersion: 2, traces: expected.length, alreadyGraded: 0 });

    const audit = await db().sql.query<{ kind: string }>(sql`SELECT kind FROM audit_events WHERE organization_id = ${org.organizationId}::uuid AND target_id = ${graderId} ORDER BY at, kind`);
    expect(audit.map((a) => a.kind)).toEqual(["grader.created", "grader.backfill_started", "grader.backfill_started", "grader.updated"]);
  }, 120_000);

  it("a cancel stops the backfill: no label is written after it, and the traces left are not graded", async () => {
    const fn = "cancel-fn";
    const graderId = await make({ model: "gpt-4o-mini", instructions: "Fine?" }, { fn });
    await Promise.all(Array.from({ length: 30 }, () => trace({ daysAgo: 4, fn })));
    judgeDelayMs = 150;
    try {
      const { backfill } = ZBackfillResponse.parse((await start(graderId)).body);
      expect(backfill.progress.total).toBe(30);
      // A second start while it runs is a conflict naming it.
      const dup = await start(graderId);
      expect(dup.status).toBe(409);
      expect(dup.body.existingId).toBe(backfill.id);
      for (let i = 0; i < 400 && ZBackfillOrNullResponse.parse((await get(graderId, backfill.id)).body).backfill!.progress.done < 3; i++) await new Promise((r) => setTimeout(r, 25));
      const cancelled = await cancel(graderId, backfill.id);
      expect(cancelled.status).toBe(200);
      const at = ZBackfillResponse.parse(cancelled.body).backfill;
      expect(at.status).toBe("cancelled");
      expect(at.progress.done).toBeLessThan(30);
      // Jobs in flight finish their judge call but write nothing; the rest do nothing.
      await new Promise((r) => setTimeout(r, 1_500));
      const after = ZBackfillOrNullResponse.parse((await get(graderId)).body).backfill!;
      expect(after).toMatchObject({ id: backfill.id, status: "cancelled", progress: { done: at.progress.done, total: 30 } });
      expect(await labelled(graderId)).toHaveLength(at.progress.done);
      // Cancelling again is a no-op; a new backfill may start and grades only what is left.
      expect((await cancel(graderId, backfill.id)).status).toBe(200);
      expect(ZEstimateResponse.parse((await estimate(graderId)).body).estimate).toMatchObject({ traces: 30 - at.progress.done, alreadyGraded: at.progress.done });
    } finally {
      judgeDelayMs = 0;
    }
  }, 120_000);

  it("a judge whose model has no price is estimated as unpriced; a rule grader has no judge cost", async () => {
    const fn = "unpriced-fn";
    await trace({ daysAgo: 2, fn });
    const judge = await make({ model: "our-private-model", instructions: "Fine?" }, { fn });
    expect(ZEstimateResponse.parse((await estimate(judge)).body).estimate).toMatchObject({ traces: 1, judge: { model: "our-private-model", priced: false, costUsd: null, priceId: null } });
    const rule = await make({ check: { op: "noErrors" } }, { kind: "rule", fn });
    expect(ZEstimateResponse.parse((await estimate(rule)).body).estimate).toMatchObject({ traces: 1, judge: null });
  });

  it("bad input is a 400, another organization's or an unknown id a 404, a viewer's start or cancel a 403", async () => {
    const graderId = await make({ model: "gpt-4o-mini", instructions: "Fine?" }, { fn: "bad-input-fn" });
    const bad: Array<Record<string, string>> = [
      { from: range.to, to: range.from },
      { from: range.from, to: range.from },
      { from: "yesterday", to: range.to },
      { from: range.from },
      { from: new Date(now - 400 * DAY).toISOString(), to: range.to },
    ];
    for (const q of bad) {
      expect((await estimate(graderId, q)).status, JSON.stringify(q)).toBe(400);
      expect((await start(graderId, q)).status, JSON.stringify(q)).toBe(400);
    }
    expect((await start(graderId, { ...range, extra: 1 })).status).toBe(400);
    expect((await get(graderId, "not-a-uuid")).status).toBe(400);
    expect((await cancel(graderId, "not-a-uuid")).status).toBe(400);
    expect((await estimate("not-a-uuid")).status).toBe(400);

    const foreign = await make({ model: "gpt-4o-mini", instructions: "Fine?" }, { organizationId: other.organizationId });
    const { backfill } = ZBackfillResponse.parse((await start(foreign, range, other.apiKey)).body);
    expect((await estimate(foreign)).status).toBe(404);
    expect((await start(foreign)).status).toBe(404);
    expect((await get(foreign)).status).toBe(404);
    expect((await get(foreign, backfill.id)).status).toBe(404);
    expect((await get(graderId, backfill.id)).status).toBe(404);
    expect((await cancel(foreign, backfill.id)).status).toBe(404);
    expect((await cancel(graderId, backfill.id)).status).toBe(404);
    expect((await cancel(graderId, "0b6f5b1e-0000-4000-8000-000000000009")).status).toBe(404);
    expect(ZBackfillOrNullResponse.parse((await get(graderId)).body).backfill).toBeNull();

    expect((await estimate(graderId, range, viewerKey)).status).toBe(200);
    expect((await start(graderId, range, viewerKey)).status).toBe(403);
    const mine = ZBackfillResponse.parse((await start(graderId)).body).backfill;
    expect((await cancel(graderId, mine.id, viewerKey)).status).toBe(403);

    // An archived grader does not backfill.
    const archived = (await createGrader(db(), org.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse({ traceFunctionKey: FN, name: "archived", kind: "rule", status: "archived", config: { check: { op: "noErrors" } } }))).grader.id;
    expect((await start(archived)).status).toBe(400);
  });

  it("through the console: the estimate, then start, progress and cancel; a viewer reads but may not start", async () => {
    const fn = "console-fn";
    await Promise.all(Array.from({ length: 3 }, () => trace({ daysAgo: 2, fn })));
    const graderId = await make({ check: { op: "noErrors" } }, { kind: "rule", fn });
    const caller = await signedInCaller(db(), org.email);
    const input = { graderId, ...range };
    const { estimate: e } = await caller.graderBackfills.estimate(input);
    expect(e).toMatchObject({ traces: 3, judge: null });
    await expect(caller.graderBackfills.estimate({ ...input, to: range.from })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const viewer = await signedInCaller(db(), viewerEmail);
    expect((await viewer.graderBackfills.estimate(input)).estimate.traces).toBe(3);
    await expect(viewer.graderBackfills.start(input)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const { backfill } = await caller.graderBackfills.start(input);
    expect(backfill.progress.total).toBe(e.traces);
    await expect(viewer.graderBackfills.cancel({ graderId, runId: backfill.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const ended = await waitUntilEnded(graderId, backfill.id);
    expect(ended).toMatchObject({ status: "completed", progress: { done: 3, total: 3 } });
    expect((await caller.graderBackfills.get({ graderId })).backfill).toMatchObject({ id: backfill.id, status: "completed" });
    await expect(caller.graderBackfills.cancel({ graderId, runId: backfill.id })).rejects.toMatchObject({ code: "CONFLICT" });
    const otherCaller = await signedInCaller(db(), other.email);
    await expect(otherCaller.graderBackfills.get({ graderId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
