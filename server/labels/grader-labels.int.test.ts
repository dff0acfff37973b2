// Grader labels: the upsert the graders feature calls, and GET /api/sdk/graderLabels (docs/api/labels.md,
// "GET /api/sdk/graderLabels").
import { beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import type { Database } from "../db/client.ts";
import { newId } from "../ids.ts";
import { upsertGraderLabel } from "./grader-labels.queries.ts";
import { getGraderLabels } from "./labels.http.ts";
import { ZGraderLabelsResponse } from "./labels.schemas.ts";

async function createGrader(db: Database, organizationId: string, name: string, status = "active") {
  return db.prisma.grader.create({
    data: { id: newId(), organizationId, traceFunctionKey: "fn-grade", name, kind: "rule", config: { target: null, check: { op: "noErrors" } }, status },
  });
}

describe("grader labels", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
  });

  const read = async (query: string, apiKey = org.apiKey) => {
    const res = await call(getGraderLabels, { apiKey, path: `/api/sdk/graderLabels${query}` });
    return { status: res.status, body: res.status === 200 ? ZGraderLabelsResponse.parse(res.body) : res.body };
  };

  it("keeps one row per grader per trace: a later grading replaces the earlier one", async () => {
    const t = await createTrace(db(), org.organizationId);
    const g = await createGrader(db(), org.organizationId, "replace-me");
    const base = { organizationId: org.organizationId, traceId: t.id, graderId: g.id, source: "live_grader" as const };
    await upsertGraderLabel(db(), { ...base, label: false, labelReason: "first", evaluatedAt: new Date("2026-01-01T00:00:00Z") });
    await db().transaction((tx) => upsertGraderLabel(tx, { ...base, label: null, failureDiagnostic: "span 'search' not found", labelConfidence: "Low" }));
    const rows = await db().prisma.graderLabel.findMany({ where: { traceId: t.id } });
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ label: null, labelReason: null, failureDiagnostic: "span 'search' not found", labelConfidence: "Low" });
    // Concurrent gradings of one pair never fail.
    await Promise.all(Array.from({ length: 5 }, (_, i) => upsertGraderLabel(db(), { ...base, label: i % 2 === 0 })));
    expect(await db().prisma.graderLabel.count({ where: { traceId: t.id } })).toBe(1);
  });

  it("reads every grader's verdict on the given traces, in trace order, with grader name and status", async () => {
    const [t1, t2] = [await createTrace(db(), org.organizationId), await createTrace(db(), org.organizationId)];
    const active = await createGrader(db(), org.organizationId, "polite");
    const archived = await createGrader(db(), org.organizationId, "old", "archived");
    await upsertGraderLabel(db(), { organizationId: org.organizationId, traceId: t1.id, graderId: active.id, label: true, labelReason: "kind words", labelConfidence: "High", source: "live_grader", graderVersion: 3 });
    await upsertGraderLabel(db(), { organizationId: org.organizationId, traceId: t2.id, graderId: archived.id, label: false, source: "human" });
    const res = await read(`?traceIds=${t2.id},${t1.id}`);
    expect(res.status).toBe(200);
    expect(res.body.labels).toEqual([
      { traceId: t2.id, graderId: archived.id, graderName: "old", graderStatus: "archived", graderVersion: 1, label: false, labelReason: null, failureDiagnostic: null, labelConfidence: null, source: "human", evaluatedAt: expect.any(String), score: null, category: null },
      { traceId: t1.id, graderId: active.id, graderName: "polite", graderStatus: "active", graderVersion: 3, label: true, labelReason: "kind words", failureDiagnostic: null, labelConfidence: "High", source: "live_grader", evaluatedAt: expect.any(String), score: null, category: null },
    ]);
    // Both filters narrow the result.
    const both = await read(`?traceIds=${t1.id},${t2.id}&graderId=${active.id}`);
    expect(both.body.labels.map((l: { traceId: string }) => l.traceId)).toEqual([t1.id]);
  });

  it("reads one grader's most recent verdicts, newest first, 50 by default, up to limit", async () => {
    const g = await createGrader(db(), org.organizationId, "busy");
    const traces = await Promise.all(Array.from({ length: 55 }, () => createTrace(db(), org.organizationId)));
    for (const [i, t] of traces.entries()) {
      await upsertGraderLabel(db(), { organizationId: org.organizationId, traceId: t.id, graderId: g.id, label: true, source: "live_grader", evaluatedAt: new Date(Date.UTC(2026, 0, 1, 0, i)) });
    }
    const res = await read(`?graderId=${g.id}`);
    expect(res.body.labels.length).toBe(50);
    expect(res.body.labels[0].traceId).toBe(traces[54].id);
    const times = res.body.labels.map((l: { evaluatedAt: string }) => l.evaluatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await read(`?graderId=${g.id}&limit=3`)).body.labels.map((l: { traceId: string }) => l.traceId)).toEqual([traces[54].id, traces[53].id, traces[52].id]);
    expect((await read(`?graderId=${g.id}&limit=200`)).body.labels.length).toBe(55);
  });

  it("isolates organizations: another organization's grader is a 404, its traces show nothing", async () => {
    const theirs = await createTrace(db(), other.organizationId);
    const theirGrader = await createGrader(db(), other.organizationId, "theirs");
    await upsertGraderLabel(db(), { organizationId: other.organizationId, traceId: theirs.id, graderId: theirGrader.id, label: true, source: "live_grader" });
    expect((await read(`?graderId=${theirGrader.id}`)).status).toBe(404);
    expect((await read(`?graderId=${newId()}`)).status).toBe(404);
    expect((await read(`?traceIds=${theirs.id}`)).body.labels).toEqual([]);
    expect((await read(`?traceIds=${theirs.id}`, other.apiKey)).body.labels.length).toBe(1);
  });

  it.each([
    ["neither traceIds nor graderId", ""],
    ["an empty traceIds", "?traceIds="],
    ["101 traceIds", `?traceIds=${Array.from({ length: 101 }, () => newId()).join(",")}`],
    ["limit 0", `?graderId=${newId()}&limit=0`],
    ["limit 201", `?graderId=${newId()}&limit=201`],
    ["a non-numeric limit", `?graderId=${newId()}&limit=ten`],
  ])("answers 400 for %s", async (_name, query) => {
    const res = await read(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
  });
});
