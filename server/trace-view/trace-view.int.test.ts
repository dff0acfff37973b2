// Console procedures over traces, verdicts and the sim plan: behaviour and authorization (another
// organization's ids → NOT_FOUND, never its data).
import { cliActor } from "../auth/audit/actor.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import { getTraceLabels } from "../labels/labels.http.ts";
import { saveAgentLabels } from "../labels/trace-labels.service.ts";
import { getSimPlan } from "../sim-plan/sim-plan.service.ts";
import { getTrace } from "../traces/traces.service.ts";
import { fromJsonText } from "../trpc/json-text.ts";
import { signedInCaller } from "../trpc/testing.ts";

const XSS = `<script>alert(1)</script><img src=x onerror="alert(2)">`;

describe("console trace procedures", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  const ids = { trace: "", root: "", child: "", grandchild: "", hidden: "", theirTrace: "", theirSpan: "", older: "" };

  beforeAll(async () => {
    org = await createTestOrg(db(), "Ours");
    other = await createTestOrg(db(), "Theirs");
    caller = await signedInCaller(db(), org.email);
    const t0 = new Date("2026-11-20T10:00:00Z");
    const at = (ms: number) => new Date(t0.getTime() + ms);
    ids.older = (await createTrace(db(), org.organizationId, { traceFunctionKey: "answer", name: "older one", startedAt: at(-60_000) })).id;
    ids.trace = (await createTrace(db(), org.organizationId, { traceFunctionKey: "answer", name: "refund question", startedAt: t0, endedAt: at(1000) })).id;
    const span = (o: Parameters<typeof createSpan>[3]) => createSpan(db(), org.organizationId, ids.trace, { traceFunctionKey: "answer", ...o });
    ids.root = (await span({ name: "answer", startedAt: t0, endedAt: at(1000), input: [XSS] })).id;
    ids.child = (await span({ name: "retrieve", parentSpanId: ids.root, startedAt: at(100), endedAt: at(300), output: { docs: [XSS] } })).id;
    ids.hidden = (await span({ name: "secret-step", parentSpanId: ids.root, startedAt: at(400), endedAt: at(500), contentOff: true })).id;
    ids.grandchild = (await span({ name: "llm", type: "llm", parentSpanId: ids.child, startedAt: at(150), endedAt: at(250), model: "gpt-x", inputTokens: 10, outputTokens: 5, spanData: { output_meta: { values: { at: ["Date"] } } } })).id;
    ids.theirTrace = (await createTrace(db(), other.organizationId, { traceFunctionKey: "answer", name: "their trace" })).id;
    ids.theirSpan = (await createSpan(db(), other.organizationId, ids.theirTrace, { name: "theirs", traceFunctionKey: "answer" })).id;
  });

  it("lists the organization's traces newest first with their verdicts, and pages with a cursor", async () => {
    const first = await caller.traces.list({ limit: 1 });
    expect(first.traces.map((t) => t.id)).toEqual([ids.trace]);
    expect(first.traces[0]!.verdict).toMatchObject({ labelStatus: "unlabeled" });
    const second = await caller.traces.list({ limit: 1, cursor: first.nextCursor! });
    expect(second.traces.map((t) => t.id)).toEqual([ids.older]);
    const all = await caller.traces.list({ search: "their" });
    expect(all.traces).toEqual([]);
    expect(await caller.traces.functionKeys()).toEqual(["answer"]);
  });

  it("returns the waterfall depth-first in start order, content-off spans included and marked", async () => {
    const { waterfall: sent, trace } = await caller.traces.get({ id: ids.trace });
    const waterfall = { ...sent, spans: fromJsonText(sent.spans) };
    expect(trace.name).toBe("refund question");
    expect(waterfall.spans.map((s) => [s.name, s.depth])).toEqual([["answer", 0], ["retrieve", 1], ["llm", 2], ["secret-step", 1]]);
    expect(waterfall.totalMs).toBe(1000);
    const llm = waterfall.spans.find((s) => s.name === "llm")!;
    expect(llm).toMatchObject({ offsetMs: 150, durationMs: 100, model: "gpt-x", tokens: { input: 10, output: 5, total: 15 } });
    expect(waterfall.spans.find((s) => s.name === "secret-step")!.contentOff).toBe(true);
  });

  it("reads the trace page's metrics in the same pass as its waterfall, equal to the trace's own read", async () => {
    const mine = await createTestOrg(db(), "Metrics");
    const t0 = new Date("2026-11-21T10:00:00Z");
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const id = (await createTrace(db(), mine.organizationId, { traceFunctionKey: "loop", name: "metrics", startedAt: t0 })).id;
    const span = (o: Parameters<typeof createSpan>[3]) => createSpan(db(), mine.organizationId, id, { traceFunctionKey: "loop", ...o });
    const root = (await span({ name: "loop", startedAt: t0, endedAt: at(900) })).id;
    await span({ name: "plan", type: "llm", parentSpanId: root, startedAt: at(10), endedAt: at(200), model: "model-a", inputTokens: 7, outputTokens: 3, cachedTokens: 2 });
    await span({ name: "act", type: "llm", parentSpanId: root, startedAt: at(300), endedAt: at(950), model: "model-b", inputTokens: 11, totalTokens: 20 });
    await span({ name: "again", type: "llm", parentSpanId: root, startedAt: at(400), endedAt: at(500), model: "model-b", errors: [{ step: "payload_budget", error: "trimmed" }] });
    const { trace } = await (await signedInCaller(db(), mine.email)).traces.get({ id });
    expect(trace).toEqual(await getTrace(db(), mine.organizationId, id));
    expect(trace).toMatchObject({ spanCount: 4, model: "model-b", faithful: false, captureIssues: ["payload_budget"] });
    expect(trace.tokens).toMatchObject({ input: 18, output: 3 });
  });

  it("returns span content verbatim (the console renders it as text) with its superjson meta", async () => {
    const root = await caller.traces.span({ traceId: ids.trace, spanId: ids.root });
    expect(root.span.input).toEqual([XSS]);
    const llm = await caller.traces.span({ traceId: ids.trace, spanId: ids.grandchild });
    expect(llm.outputMeta).toEqual({ values: { at: ["Date"] } });
  });

  it("answers NOT_FOUND for another organization's trace and span ids", async () => {
    await expect(caller.traces.get({ id: ids.theirTrace })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.traces.span({ traceId: ids.theirTrace, spanId: ids.theirSpan })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // Our trace with their span id: still nothing of theirs.
    await expect(caller.traces.span({ traceId: ids.trace, spanId: ids.theirSpan })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.labels.saveHuman({ traceId: ids.theirTrace, label: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.labels.clear({ traceId: ids.theirTrace })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.labels.review({ traceId: ids.theirTrace, approve: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db().prisma.traceLabel.count({ where: { traceId: ids.theirTrace } })).toBe(0);
  });

  it("records a human verdict that the REST labels read returns, approved, and clears it", async () => {
    await caller.labels.saveHuman({ traceId: ids.trace, label: false, annotation: "wrong refund amount" });
    const rest = await call(getTraceLabels, { apiKey: org.apiKey, path: `/api/sdk/traces/labels?traceIds=${ids.trace}` });
    expect(rest.body.labels[0]).toMatchObject({ label: false, annotation: "wrong refund amount", labelSource: "human", approved: true });
    expect((await caller.traces.get({ id: ids.trace })).verdict).toMatchObject({ label: false, labelSource: "human" });
    await caller.labels.clear({ traceId: ids.trace });
    expect((await caller.traces.get({ id: ids.trace })).verdict).toMatchObject({ labelStatus: "unlabeled" });
  });

  it("approves and rejects an agent verdict, and refuses to 'approve' a human one", async () => {
    await saveAgentLabels(db(), { organizationId: org.organizationId, userId: org.userId }, cliActor, { labels: [{ traceId: ids.older, label: true }], testRunId: undefined });
    expect((await caller.traces.get({ id: ids.older })).verdict).toMatchObject({ labelSource: "agent", approved: false });
    await expect(caller.labels.review({ traceId: ids.older, approve: true })).resolves.toMatchObject({ approvalState: "approved" });
    expect((await caller.traces.get({ id: ids.older })).verdict).toMatchObject({ approved: true });
    await caller.labels.review({ traceId: ids.older, approve: false });
    expect((await caller.traces.get({ id: ids.older })).verdict).toMatchObject({ approved: false });
    await caller.labels.saveHuman({ traceId: ids.older, label: true });
    await expect(caller.labels.review({ traceId: ids.older, approve: true })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("shows only the organization's sim plan nodes and applies a toggle the SDK read sees", async () => {
    const nodes = await caller.simPlan.nodes({});
    expect(nodes.map((n) => n.name).sort()).toEqual(["answer", "llm", "retrieve", "secret-step"]);
    expect(nodes.find((n) => n.name === "secret-step")).toMatchObject({ spanCount: 1, contentOffSpanCount: 1 });
    expect(nodes.find((n) => n.name === "answer")).toMatchObject({ locked: true });
    const result = await caller.simPlan.decide({ traceFunctionKey: "answer", name: "retrieve", captureContent: false });
    expect(result.refused).toEqual([]);
    expect(await getSimPlan(db(), org.organizationId)).toContainEqual({ traceFunctionKey: "answer", name: "retrieve", captureContent: false });
    expect(await getSimPlan(db(), other.organizationId)).toEqual([]);
    const refused = await caller.simPlan.decide({ traceFunctionKey: "answer", name: "answer", captureContent: false });
    expect(refused.refused).toHaveLength(1);
  });

  it("rejects malformed input with BAD_REQUEST", async () => {
    await expect(caller.traces.get({ id: "not-a-uuid" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.traces.list({ limit: 1000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
