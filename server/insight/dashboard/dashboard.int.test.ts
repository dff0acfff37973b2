// The dashboard's aggregates against a real database, each figure checked against the console's trace list
// with the filter the figure links to: the list's total must equal the figure.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createTrace } from "../../../test/factories.ts";
import { postExternalSpan, postExternalTrace } from "../../ingest/ingest.http.ts";
import { completionPayload, spanPayload } from "../../ingest/testing/payloads.ts";
import { newId } from "../../ids.ts";
import { signedInCaller } from "../../trpc/testing.ts";
import { getDashboard, stepFor, type TTraceLink } from "./dashboard.service.ts";
import { callTool, connectClient, serveMcp } from "../../mcp/testing/mcp-client.ts";

const at = (hour: number, minute = 0) => `2026-09-01T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00.000000Z`;
const range = { from: new Date("2026-09-01T00:00:00Z"), to: new Date("2026-09-02T00:00:00Z") };

describe("dashboard", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  let b: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  const graderId = newId();
  const experimentId = newId();

  /** The console's trace list total for a figure's link (its URL parameters, as the page reads them). */
  const listTotal = async (link: TTraceLink) => {
    const page = await caller.traces.list({
      startedFrom: link.from, startedTo: link.to, traceFunctionKey: link.fn, status: link.status, model: link.model,
      graderId: link.grader, graderLabel: link.graderLabel, labelState: link.label, verdictSource: link.verdictSource as "human" | undefined,
      kind: link.kind, testRunId: link.run,
    } as Parameters<typeof caller.traces.list>[0]);
    return page.total;
  };

  beforeAll(async () => {
    a = await createTestOrg(db(), "A");
    b = await createTestOrg(db(), "B");
    caller = await signedInCaller(db(), a.email);
    const send = (traceId: string, fn: string, startedAt: string, model: string, tokens: Record<string, number>, error?: string) =>
      call(postExternalSpan, {
        apiKey: a.apiKey,
        body: spanPayload({ traceId, traceFunctionKey: fn, startedAt, endedAt: startedAt.replace(":00.000000Z", ":02.000000Z"), contexts: [{ model, ...tokens }], error }),
      });
    // 10:00–10:59: three "answer" traces (one failed, one on an unpriced model); 14:00: two "summarize" traces.
    const traces: string[] = [];
    for (const [fn, time, model, err] of [
      ["answer", at(10, 5), "gpt-4o", undefined],
      ["answer", at(10, 20), "gpt-4o-mini", "boom"],
      ["answer", at(10, 40), "acme-local", undefined],
      ["summarize", at(14, 1), "gpt-4o", undefined],
      ["summarize", at(14, 30), "claude-3-5-haiku-20241022", undefined],
    ] as const) {
      const id = randomUUID();
      traces.push(id);
      expect((await send(id, fn, time, model, { inputTokens: 1000, outputTokens: 100 }, err)).status).toBe(200);
      const completion = completionPayload({ traceId: id, traceFunctionKey: fn, expectedSpanCount: 1, externalTrace: { started_at: time, ended_at: time.replace(":00.000000Z", ":02.000000Z") } });
      expect((await call(postExternalTrace, { apiKey: a.apiKey, body: completion })).status).toBe(200);
    }
    const canonical = await db().prisma.trace.findMany({ where: { organizationId: a.organizationId }, select: { id: true, sourceTraceId: true } });
    const idOf = (source: string) => canonical.find((t) => t.sourceTraceId === source)!.id;
    await db().prisma.grader.create({ data: { organizationId: a.organizationId, id: graderId, traceFunctionKey: "answer", name: "polite", kind: "rule", config: {} } });
    for (const [i, label] of [[0, true], [1, false], [2, true]] as const) {
      await db().prisma.graderLabel.create({ data: { organizationId: a.organizationId, id: newId(), traceId: idOf(traces[i]!), graderId, label, source: "grader" } });
    }
    await db().prisma.traceLabel.create({
      data: { organizationId: a.organizationId, id: newId(), traceId: idOf(traces[3]!), labelStatus: "labeled", label: false, labelSource: "human", approved: true, approvalState: "approved" },
    });
    // An experiment with two replay traces (one graded fail), and another organization's trace: replays are only in
    // the replay chart.
    await db().prisma.experiment.create({ data: { organizationId: a.organizationId, id: experimentId, traceFunctionKey: "answer", selection: {}, createdAt: new Date(at(12)) } });
    for (const label of [true, false]) {
      const replay = await createTrace(db(), a.organizationId, { traceFunctionKey: "answer", startedAt: new Date(at(12, 5)), testRunId: experimentId });
      await db().prisma.graderLabel.create({ data: { organizationId: a.organizationId, id: newId(), traceId: replay.id, graderId, label, source: "grader" } });
    }
    await createTrace(db(), b.organizationId, { traceFunctionKey: "answer", startedAt: new Date(at(10, 30)) });
  });

  it("picks an interval that keeps charts under 120 points", () => {
    expect(stepFor(range.from, range.to)).toBe(900);
    expect(stepFor(new Date(0), new Date(3600_000))).toBe(60);
    expect(stepFor(new Date(0), new Date(30 * 86_400_000))).toBe(21_600);
  });

  it("counts traces, errors, latency and cost per interval, each figure equal to the trace list it opens", async () => {
    const d = await getDashboard(db(), a.organizationId, range);
    expect(d.functions.totals).toMatchObject({ traces: 5, errors: 1, p50: 2000 });
    const busy = d.volume.filter((v) => v.traces > 0);
    expect(busy.map((v) => [v.start.slice(11, 16), v.traces, v.errors])).toEqual([
      ["10:00", 1, 0], ["10:15", 1, 1], ["10:30", 1, 0], ["14:00", 1, 0], ["14:30", 1, 0],
    ]);
    for (const v of busy) {
      expect(await listTotal(v.link)).toBe(v.traces);
      expect(await listTotal(v.errorsLink)).toBe(v.errors);
    }
    expect(await listTotal(d.functions.totals.link)).toBe(5);
  });

  it("sums tokens and cost by model and by function, counting unpriced spans apart", async () => {
    const d = await getDashboard(db(), a.organizationId, range);
    const gpt4o = d.usage.byModel.find((m) => m.model === "gpt-4o")!;
    // 1000 × 2.5 + 100 × 10 per million, twice.
    expect(gpt4o).toMatchObject({ traces: 2, spans: 2, inputTokens: 2000, outputTokens: 200, unpricedSpans: 0 });
    expect(gpt4o.costUsd).toBeCloseTo(0.007, 10);
    expect(d.usage.byModel.find((m) => m.model === "acme-local")).toMatchObject({ unpricedSpans: 1, costUsd: null });
    for (const m of d.usage.byModel) expect(await listTotal(m.link)).toBe(m.traces);
    const byFn = Object.fromEntries(d.functions.functions.map((f) => [f.traceFunctionKey, f.traces]));
    expect(byFn).toEqual({ answer: 3, summarize: 2 });
    for (const f of d.functions.functions) expect(await listTotal(f.link)).toBe(f.traces);
    const oneFn = await getDashboard(db(), a.organizationId, { ...range, traceFunctionKey: "summarize" });
    expect(oneFn.functions.totals.traces).toBe(2);
    expect(oneFn.usage.byModel.map((m) => m.model).sort()).toEqual(["claude-3-5-haiku-20241022", "gpt-4o"]);
  });

  it("gives each grader's pass rate per interval and the verdicts, each opening exactly its traces", async () => {
    const d = await getDashboard(db(), a.organizationId, range);
    expect(d.graders).toHaveLength(1);
    expect(d.graders[0]).toMatchObject({ name: "polite", pass: 2, fail: 1 });
    expect(await listTotal(d.graders[0]!.link)).toBe(3);
    for (const p of d.graders[0]!.points.filter((x) => x.pass + x.fail > 0)) expect(await listTotal(p.link)).toBe(p.pass + p.fail);
    expect(d.verdicts).toEqual([expect.objectContaining({ source: "human", label: "fail", traces: 1 })]);
    expect(await listTotal(d.verdicts[0]!.link)).toBe(1);
    expect(d.replays).toEqual([expect.objectContaining({ experimentId, traces: 2, pass: 1, fail: 1, passRate: 0.5 })]);
    expect(await listTotal(d.replays[0]!.link)).toBe(2);
    expect(await listTotal({ ...d.graders[0]!.link, graderLabel: "fail" })).toBe(1);
  });

  it("keeps organizations apart and answers an agent through MCP in compact text", async () => {
    const other = await getDashboard(db(), b.organizationId, range);
    expect(other.functions.totals.traces).toBe(1);
    const served = await serveMcp();
    const client = await connectClient(served.url, a.apiKey);
    try {
      const res = await callTool(client, "get_insights", { from: range.from.toISOString(), to: range.to.toISOString() });
      expect(res.text).toContain("Traces 5, errors 1 (20%)");
      expect(res.text).toContain("- answer: 3 traces, 1 errors");
      expect(res.text).toMatch(/- gpt-4o: 2 calls in 2 traces; tokens in 2000, out 200; cost \$0\.0070/);
      expect(res.text).toContain("acme-local: 1 calls in 1 traces; tokens in 1000, out 100; cost n/a; 1 unpriced");
      expect(res.text).toContain("polite");
      const bad = await callTool(client, "get_insights", { from: "yesterday" });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
      await served.close();
    }
  });
});
