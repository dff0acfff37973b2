// Dataset grader re-runs (docs/graders.md "Re-runs"; docs/api/datasets.md): progress while running, completed with {tracesGraded, gradersRun}, concurrent identical
// requests join one run, and the 400/404 cases.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { newId } from "../../ids.ts";
import { createGrader } from "../../graders/graders.service.ts";
import { ZSaveGraderBody } from "../../graders/graders.schemas.ts";
import { startWorkers, type Workers } from "../../workers.ts";
import { createLimiter } from "../limiter.ts";
import { getRerunGraders, postRerunGraders } from "./reruns.http.ts";
import { ZGetRerunResponse, ZStartRerunResponse, type TGraderRerun } from "./reruns.schemas.ts";

const FN = "summarize";

describe("dataset grader re-runs", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let worker: Workers;
  let server: http.Server;
  let judgeCalls = 0;
  const g: Record<string, string> = {};

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        judgeCalls++;
        // Slow enough that a poller sees the run in progress.
        setTimeout(() => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ choices: [{ message: { content: '{"label": true, "reason": "fine"}' } }] }));
        }, 40);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    org = await createTestOrg(db());
    other = await createTestOrg(db(), "Other");
    const make = async (body: unknown) => (await createGrader(db(), org.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse(body))).grader.id;
    g.rule = await make({ traceFunctionKey: FN, name: "short", kind: "rule", live: false, config: { check: { op: "maxDurationMs", value: 60_000 } } });
    g.judge = await make({ traceFunctionKey: FN, name: "faithful", kind: "llm_judge", live: false, config: { model: "m", instructions: "Faithful?" } });
    g.spare = await make({ traceFunctionKey: FN, name: "spare", kind: "rule", live: false, config: { check: { op: "noErrors" } } });
    worker = await startWorkers(db(), {
      judge: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, timeoutMs: 5_000, maxRetries: 0, maxRetryDelayMs: 10, limiter: createLimiter(2) },
      pollIntervalMs: 200,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await new Promise<void>((r) => server.close(() => r()));
  });

  async function dataset(traces: ("completed" | "pending")[], graderIds: string[], organizationId = org.organizationId) {
    const id = newId();
    await db().prisma.dataset.create({ data: { id, organizationId, traceFunctionKey: FN, name: `ds-${id}` } });
    for (const status of traces) {
      const t = await createTrace(db(), organizationId, { traceFunctionKey: FN, status });
      await createSpan(db(), organizationId, t.id, { name: "root", output: "summary" });
      await db().prisma.datasetTrace.create({ data: { datasetId: id, organizationId, traceId: t.id } });
    }
    for (const graderId of graderIds) await db().prisma.datasetGrader.create({ data: { organizationId, datasetId: id, graderId } });
    return id;
  }
  const post = (id: string, body?: unknown, apiKey = org.apiKey) =>
    call((req, ctx) => postRerunGraders(req, ctx!), { apiKey, method: "POST", body, params: { id }, path: `/api/sdk/datasets/${id}/rerunGraders` });
  const get = (id: string, runId?: string, apiKey = org.apiKey) =>
    call((req, ctx) => getRerunGraders(req, ctx!), { apiKey, params: { id }, path: `/api/sdk/datasets/${id}/rerunGraders${runId ? `?runId=${runId}` : ""}` });

  it("runs over a 50-trace dataset: concurrent identical requests join one run; progress, then completed", async () => {
    const id = await dataset(Array(50).fill("completed"), [g.rule, g.judge]);
    const starts = await Promise.all(Array.from({ length: 10 }, (_, i) => post(id, i % 2 ? { graderIds: [g.judge, g.rule] } : undefined)));
    expect(starts.map((s) => s.status)).toEqual(Array(10).fill(200));
    const parsed = starts.map((s) => ZStartRerunResponse.parse(s.body));
    expect(new Set(parsed.map((p) => p.run.id)).size).toBe(1);
    expect(parsed.filter((p) => !p.joinedExisting)).toHaveLength(1);
    const runId = parsed[0].run.id;
    expect(parsed[0].run.graderIds.sort()).toEqual([g.rule, g.judge].sort());

    // A different selection is refused while the run is active.
    const different = await post(id, { graderIds: [g.rule] });
    expect(different.status).toBe(400);
    expect(different.body.error).toContain("different graders");

    const seen: TGraderRerun[] = [];
    let run: TGraderRerun | null = null;
    for (let i = 0; i < 600; i++) {
      run = ZGetRerunResponse.parse((await get(id, runId)).body).run!;
      seen.push(run);
      if (run.status === "completed" || run.status === "errored") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(run).toMatchObject({ id: runId, status: "completed", result: { tracesGraded: 50, gradersRun: 2 } });
    expect(run!.progress).toBeUndefined();
    const during = seen.filter((s) => s.status === "running");
    expect(during.length).toBeGreaterThan(0);
    for (const s of during) {
      expect(s.progress).toMatchObject({ totalTraces: 50, graderCount: 2 });
      expect(s.progress!.completedTraces).toBeLessThan(50);
      expect(s.result).toBeUndefined();
    }
    const counts = during.map((s) => s.progress!.completedTraces);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(await db().prisma.graderLabel.count({ where: { organizationId: org.organizationId, graderId: { in: [g.rule, g.judge] } } })).toBe(100);
    expect(judgeCalls).toBe(50);
    // Nothing is active any more; a new selection may start.
    expect(ZGetRerunResponse.parse((await get(id)).body)).toEqual({ run: null });
    const next = await post(id, { graderIds: [g.rule] });
    expect(next.status).toBe(200);
    expect(next.body.run.id).not.toBe(runId);
  });

  it("counts only gradable traces as graded; an empty dataset completes at once", async () => {
    const mixed = await dataset(["completed", "pending"], [g.spare]);
    const { run } = ZStartRerunResponse.parse((await post(mixed)).body);
    let current = run;
    for (let i = 0; i < 400 && current.status !== "completed"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      current = ZGetRerunResponse.parse((await get(mixed, run.id)).body).run!;
    }
    expect(current).toMatchObject({ status: "completed", result: { tracesGraded: 1, gradersRun: 1 } });
    const empty = await dataset([], [g.spare]);
    expect(ZStartRerunResponse.parse((await post(empty)).body).run).toMatchObject({ status: "completed", result: { tracesGraded: 0, gradersRun: 1 } });
  });

  it("answers 400 for an unassigned grader or a dataset without graders, 404 outside the organization", async () => {
    const id = await dataset(["completed"], [g.rule]);
    const unassigned = await post(id, { graderIds: [g.rule, g.spare] });
    expect(unassigned.status).toBe(400);
    expect(unassigned.body.error).toContain(g.spare);
    expect((await post(id, { graderIds: [newId()] })).status).toBe(400);
    const bare = await dataset(["completed"], []);
    const none = await post(bare);
    expect(none.status).toBe(400);
    expect(none.body.error).toContain("no graders");
    expect((await post(id, { graderIds: [] })).status).toBe(400);
    expect((await post(id, { graderIds: "x" })).status).toBe(400);
    // Another organization's dataset, a made-up id and a malformed id are all 404, for POST and GET.
    const theirs = await dataset(["completed"], [], other.organizationId);
    for (const target of [theirs, newId(), "not-a-uuid"]) {
      expect((await post(target)).status).toBe(404);
      expect((await get(target)).status).toBe(404);
    }
    expect((await get(id, newId())).status).toBe(404);
    expect((await get(id, "nope")).status).toBe(404);
    expect((await post(id, undefined, other.apiKey)).status).toBe(404);
    expect((await get(id)).body).toEqual({ run: null });
  });
});
