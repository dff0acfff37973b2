// POST /api/sdk/replay/start: selection, limits, items, the stored experiment (docs/api/replay.md,
// "POST /api/sdk/replay/start"; docs/replay.md, "Start: what gets replayed").
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { postDataset, postDatasetGraders, postDatasetTraces } from "../../datasets/datasets.http.ts";
import { newId } from "../../ids.ts";
import { postReplayStart } from "../replay.http.ts";
import { ZStartResponse } from "./start.schemas.ts";

describe("replay/start", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  const t0 = Date.parse("2026-11-01T10:00:00.000Z");
  const at = (minutes: number) => new Date(t0 + minutes * 60_000);

  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
  });

  const start = async (body: unknown, apiKey = org.apiKey) => {
    const res = await call(postReplayStart, { apiKey, body, path: "/api/sdk/replay/start" });
    return { status: res.status, body: res.status === 200 ? ZStartResponse.parse(res.body) : res.body };
  };
  const experimentCount = () => db().prisma.experiment.count();
  const trace = (fn: string, o: Parameters<typeof createTrace>[2] = {}) =>
    createTrace(db(), org.organizationId, { traceFunctionKey: fn, ...o }).then((t) => t.id);
  const grader = async (organizationId: string, fn: string, status = "active") => {
    const id = newId();
    await db().prisma.grader.create({
      data: { id, organizationId, traceFunctionKey: fn, name: `g-${id}`, kind: "rule", config: { target: null, check: { op: "noErrors" } }, status },
    });
    return id;
  };
  const dataset = async (fn: string, traceIds: string[], graderIds: string[] = [], apiKey = org.apiKey) => {
    const res = await call(postDataset, { apiKey, body: { traceFunctionKey: fn, name: `ds-${newId()}` } });
    const id = res.body.dataset.id as string;
    if (traceIds.length) expect((await call(postDatasetTraces, { apiKey, body: { traceIds }, params: { id } })).status).toBe(200);
    if (graderIds.length) expect((await call(postDatasetGraders, { apiKey, body: { graderIds }, params: { id } })).status).toBe(200);
    return id;
  };

  it("by limit: the most recently started completed or failed, non-dropped, non-replay traces, newest first", async () => {
    const fn = "fn-limit";
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await trace(fn, { startedAt: at(i), status: i === 6 ? "failed" : "completed" }));
    await trace(fn, { startedAt: at(100), status: "pending" });
    await trace(fn, { startedAt: at(101), dropped: true });
    await trace(fn, { startedAt: at(102), testRunId: newId(), originalTraceId: ids[0] });
    await trace("fn-other", { startedAt: at(103) });
    await createTrace(db(), other.organizationId, { traceFunctionKey: fn, startedAt: at(104) });

    const three = await start({ traceFunctionKey: fn, limit: 3 });
    expect(three.status).toBe(200);
    expect(three.body.items.map((i: { originalTraceId: string }) => i.originalTraceId)).toEqual([ids[6], ids[5], ids[4]]);
    const byDefault = await start({ traceFunctionKey: fn });
    expect(byDefault.body.items).toHaveLength(5);
    expect(byDefault.body.items[0].originalTraceId).toBe(ids[6]);
  });

  it("by limit skips unfaithful traces (payload_budget, serialization_degraded); traceIds and datasets keep them and say so", async () => {
    const fn = "fn-faithful";
    const faithful = await trace(fn, { startedAt: at(0) });
    await createSpan(db(), org.organizationId, faithful, { name: "root", startedAt: at(0), errors: [{ source: "code", error: "an ordinary error", step: "tool" }] });
    const trimmed = await trace(fn, { startedAt: at(1) });
    await createSpan(db(), org.organizationId, trimmed, {
      name: "root", startedAt: at(1), errors: [{ source: "sdk", step: "payload_budget", error: "trimmed rawSpan.span_data.input (9000000 bytes)" }],
    });
    const degraded = await trace(fn, { startedAt: at(2) });
    const root = await createSpan(db(), org.organizationId, degraded, { name: "root", startedAt: at(2) });
    await createSpan(db(), org.organizationId, degraded, {
      parentSpanId: root.id, name: "tool", startedAt: at(2), errors: [{ source: "sdk", step: "serialization_degraded", error: "non-replayable: a function" }],
    });

    const byLimit = await start({ traceFunctionKey: fn, limit: 10 });
    expect(byLimit.body.items.map((i: { originalTraceId: string }) => i.originalTraceId)).toEqual([faithful]);
    expect(byLimit.body.items[0]).toMatchObject({ faithful: true });
    expect(byLimit.body.items[0].unfaithfulReason).toBeUndefined();

    const byIds = await start({ traceFunctionKey: fn, traceIds: [faithful, trimmed, degraded] });
    expect(byIds.status).toBe(200);
    const items = new Map(byIds.body.items.map((i: { originalTraceId: string }) => [i.originalTraceId, i]));
    expect(items.get(faithful)).toMatchObject({ faithful: true });
    expect(items.get(trimmed)).toMatchObject({ faithful: false, unfaithfulReason: expect.stringContaining("payload_budget") });
    expect(items.get(degraded)).toMatchObject({ faithful: false, unfaithfulReason: expect.stringContaining("serialization_degraded") });

    const byDataset = await start({ traceFunctionKey: fn, datasetIds: [await dataset(fn, [trimmed])] });
    expect(byDataset.body.items).toEqual([expect.objectContaining({ originalTraceId: trimmed, faithful: false })]);
  });

  it("answers both id namings, relative URLs and every item alias; records the experiment with the key's user", async () => {
    const fn = "fn-items";
    const id = await trace(fn, { startedAt: at(0), endedAt: at(2) });
    const root = await createSpan(db(), org.organizationId, id, { name: "root", type: "agent", startedAt: at(0), sourceSpanId: "span_root_1" });
    await createSpan(db(), org.organizationId, id, {
      parentSpanId: root.id, name: "llm", type: "llm", startedAt: at(1), model: "gpt-x", inputTokens: 10, outputTokens: 5, totalTokens: 15,
    });
    const seeded = await trace(fn, { startedAt: at(3), ingestionType: "seeded" });

    const res = await start({ traceFunctionKey: fn, traceIds: [id, seeded], name: "run 1", attempts: 2, includeDbBranchLease: true, metadata: { team: "a" } });
    expect(res.status).toBe(200);
    const runId = res.body.testRunId as string;
    expect(res.body).toMatchObject({ experimentId: runId, testRunUrl: `/replays/${runId}`, experimentUrl: `/replays/${runId}`, attempts: 2 });
    const tokens = { input: 10, output: 5, cached: 0, total: 15 };
    expect(res.body.items[0]).toEqual({
      externalSpanId: root.id, originalSpanId: root.id, sourceSpanId: root.id, originalTraceId: id, sourceTraceId: id,
      originalDurationMs: 120_000, durationMs: 120_000, originalTokens: tokens, tokens, originalModel: "gpt-x", model: "gpt-x",
      ingestionType: "captured", faithful: true, dbSnapshotRef: null, dbBranchLeaseError: { code: "not_supported", message: expect.any(String) },
    });
    expect(res.body.items[1]).toMatchObject({
      originalTraceId: seeded, externalSpanId: null, ingestionType: "seeded", originalTokens: null, originalModel: null,
      dbBranchLeaseError: { code: "seeded_trace" },
    });

    const stored = await db().prisma.experiment.findFirstOrThrow({ where: { id: runId }, include: { items: { orderBy: { position: "asc" } } } });
    expect(stored).toMatchObject({
      organizationId: org.organizationId, name: "run 1", traceFunctionKey: fn, status: "pending", attempts: 2, judgeAssertions: true,
      createdByUserId: org.userId, plannedTraceCount: 4, metadata: { team: "a" }, selection: { traceIds: [id, seeded] },
    });
    expect(stored.items.map((i) => i.originalTraceId)).toEqual([id, seeded]);
  });

  it("by ids: the given order, duplicates collapsed, limit ignored; replay and non-completed traces are allowed", async () => {
    const fn = "fn-ids";
    const a = await trace(fn, { startedAt: at(0) });
    const b = await trace(fn, { startedAt: at(1), status: "pending" });
    const res = await start({ traceFunctionKey: fn, limit: 1, traceIds: [b, a.toUpperCase(), b] });
    expect(res.body.items.map((i: { originalTraceId: string }) => i.originalTraceId)).toEqual([b, a]);
  });

  it("by two overlapping datasets: the union deduplicated, attributed to both, graded by graderIds plus their active graders", async () => {
    const fn = "fn-ds";
    const [t1, t2, t3] = [await trace(fn), await trace(fn), await trace(fn)];
    const dropped = await trace(fn);
    const [g1, g2, gDirect] = [await grader(org.organizationId, fn), await grader(org.organizationId, fn), await grader(org.organizationId, fn)];
    const dsA = await dataset(fn, [t1, t2, dropped], [g1]);
    const dsB = await dataset(fn, [t2, t3], [g1, g2]);
    await db().prisma.trace.update({ where: { organizationId_id: { organizationId: org.organizationId, id: dropped } }, data: { dropped: true } });
    await db().prisma.grader.updateMany({ where: { id: g2 }, data: { status: "archived" } });

    const res = await start({ traceFunctionKey: fn, datasetId: dsA, datasetIds: [dsB, dsA], graderIds: [gDirect] });
    expect(res.status).toBe(200);
    const expected = [dsA, dsB].flatMap((ds) => (ds === dsA ? [t1, t2].sort() : [t2, t3].sort()));
    expect(res.body.items.map((i: { originalTraceId: string }) => i.originalTraceId)).toEqual([...new Set(expected)]);
    const stored = await db().prisma.experiment.findFirstOrThrow({ where: { id: res.body.testRunId as string } });
    expect(stored.datasetIds).toEqual([dsA, dsB]);
    expect([...(stored.graderIds as string[])].sort()).toEqual([g1, gDirect].sort());
  });

  it("onlyWithAssertions keeps traces with an active assertion, for limit and for ids", async () => {
    const fn = "fn-assert";
    const [a, b, c] = [await trace(fn, { startedAt: at(0) }), await trace(fn, { startedAt: at(1) }), await trace(fn, { startedAt: at(2) })];
    const assertion = (traceId: string, archivedAt: Date | null = null) =>
      db().prisma.assertion.create({ data: { id: newId(), organizationId: org.organizationId, traceId, assertion: "x", archivedAt } });
    await assertion(a);
    await assertion(c, new Date());
    const byLimit = await start({ traceFunctionKey: fn, onlyWithAssertions: true });
    expect(byLimit.body.items.map((i: { originalTraceId: string }) => i.originalTraceId)).toEqual([a]);
    const byIds = await start({ traceFunctionKey: fn, onlyWithAssertions: true, traceIds: [b, a, c] });
    expect(byIds.body.items.map((i: { originalTraceId: string }) => i.originalTraceId)).toEqual([a]);
  });

  it("dryRun selects the items and creates nothing", async () => {
    const fn = "fn-dry";
    const a = await trace(fn);
    const before = await experimentCount();
    const res = await start({ traceFunctionKey: fn, dryRun: true });
    expect(res.body).toMatchObject({ testRunId: null, experimentId: null, testRunUrl: null, experimentUrl: null, dryRun: true });
    expect(res.body.items.map((i: { originalTraceId: string }) => i.originalTraceId)).toEqual([a]);
    expect(await experimentCount()).toBe(before);
  });

  it("answers 400 for every broken limit or unusable id, naming it, and creates nothing", async () => {
    const fn = "fn-400";
    const mine = await trace(fn);
    const otherFnTrace = await trace("fn-400-b");
    const foreignTrace = (await createTrace(db(), other.organizationId, { traceFunctionKey: fn })).id;
    const mismatchedDs = await dataset("fn-400-b", []);
    const foreignDs = await dataset(fn, [], [], other.apiKey);
    const inactive = await grader(org.organizationId, fn, "archived");
    const foreignGrader = await grader(other.organizationId, fn);
    const mismatchedGrader = await grader(org.organizationId, "fn-400-b");
    const ids = (n: number) => Array.from({ length: n }, () => newId());
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["no trace function", { limit: 1 }, "traceFunctionKey"],
      ["limit 0", { traceFunctionKey: fn, limit: 0 }, "limit"],
      ["limit 5001", { traceFunctionKey: fn, limit: 5001 }, "limit"],
      ["101 traceIds", { traceFunctionKey: fn, traceIds: ids(101) }, "traceIds"],
      ["51 datasetIds", { traceFunctionKey: fn, datasetIds: ids(51) }, "datasetIds"],
      ["datasetId + 50 datasetIds", { traceFunctionKey: fn, datasetId: newId(), datasetIds: ids(50) }, "datasetIds"],
      ["101 graderIds", { traceFunctionKey: fn, graderIds: ids(101) }, "graderIds"],
      ["attempts 0", { traceFunctionKey: fn, attempts: 0 }, "attempts"],
      ["attempts 101", { traceFunctionKey: fn, attempts: 101 }, "attempts"],
      ["an unknown trace", { traceFunctionKey: fn, traceIds: [mine, newId()] }, "traceIds"],
      ["a non-UUID trace id", { traceFunctionKey: fn, traceIds: ["nope"] }, "traceIds"],
      ["another organization's trace", { traceFunctionKey: fn, traceIds: [foreignTrace] }, foreignTrace],
      ["another trace function's trace", { traceFunctionKey: fn, traceIds: [otherFnTrace] }, otherFnTrace],
      ["another organization's dataset", { traceFunctionKey: fn, datasetId: foreignDs }, foreignDs],
      ["another trace function's dataset", { traceFunctionKey: fn, datasetIds: [mismatchedDs] }, mismatchedDs],
      ["an inactive grader", { traceFunctionKey: fn, graderIds: [inactive] }, inactive],
      ["another organization's grader", { traceFunctionKey: fn, graderIds: [foreignGrader] }, foreignGrader],
      ["another trace function's grader", { traceFunctionKey: fn, graderIds: [mismatchedGrader] }, mismatchedGrader],
    ];
    const before = await experimentCount();
    for (const [name, body, named] of cases) {
      const res = await start(body);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ code: expect.any(String), error: expect.any(String), issues: expect.any(Array) });
      expect(JSON.stringify(res.body.issues), name).toContain(named);
    }
    expect(await experimentCount()).toBe(before);
  });

  it("answers 401 without a valid key", async () => {
    const res = await call(postReplayStart, { body: { traceFunctionKey: "fn" } });
    expect(res.status).toBe(401);
  });
});
