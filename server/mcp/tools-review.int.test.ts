// The review-loop tools through the official MCP client (docs/mcp.md, "Tools"): an agent proposes assertions, a
// person approves some, a replay judges exactly the approved ones, the agent reads them back, scores the replay
// per assertion with evidence and reads the experiment; categories, groups, graders and re-runs; generation
// against a local OpenAI-compatible judge stub.
import { cliActor } from "../auth/audit/actor.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSpan, createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import type { ServedRoutes } from "../../test/http-server.ts";
import { reviewAssertions } from "../assertions/assertions.service.ts";
import { resetEnvCache } from "../env.ts";
import { ZSaveGraderBody } from "../graders/graders.schemas.ts";
import { createGrader } from "../graders/graders.service.ts";
import { createLimiter } from "../grading/limiter.ts";
import { newId } from "../ids.ts";
import { judgeTraceAssertions } from "../replay/complete/evaluation/trace-assertions.ts";
import { postReplayStart } from "../replay/replay.http.ts";
import { startWorkers, type Workers } from "../workers.ts";
import { callTool, connectClient, serveMcp } from "./testing/mcp-client.ts";

const FN = "refund-bot";
const ID_LINE = /\[ID: ([0-9a-f-]{36})\] checks /g;

describe("MCP review-loop tools", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let served: ServedRoutes;
  let client: Client;
  let worker: Workers;
  let judge: http.Server;
  let failing: string;
  let answerSpan: string;
  let judgeCalls = 0;
  const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };

  beforeAll(async () => {
    org = await createTestOrg(db(), "Acme");
    other = await createTestOrg(db(), "Other");
    // A local OpenAI-compatible judge: drafts one assertion, or cites the first span it is shown.
    judge = http.createServer((req, res) => {
      judgeCalls++;
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const messages = JSON.parse(body).messages as { content: string }[];
        const spanId = /\[ID: ([0-9a-f-]{36})\]/.exec(messages[1]!.content)?.[1];
        const content = messages[0]!.content.includes("propose assertions")
          ? { assertions: [{ assertion: "offers the refund the policy allows", passCriteria: "a refund is offered", target: { kind: "output" }, justification: [{ spanId, text: "the answer refuses" }, { spanId: newId(), text: "unknown span" }] }] }
          : { evidence: [{ spanId, text: "this span refuses the refund" }] };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ choices: [{ message: { role: "assistant", content: JSON.stringify(content) } }] }));
      });
    });
    await new Promise<void>((r) => judge.listen(0, "127.0.0.1", r));
    process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(judge.address() as AddressInfo).port}/v1`;
    resetEnvCache();
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: FN, name: "refund request" });
    const root = await createSpan(db(), org.organizationId, t.id, { name: FN, output: "Sorry, no refunds." });
    answerSpan = (await createSpan(db(), org.organizationId, t.id, { name: "answer", parentSpanId: root.id, output: "no refunds" })).id;
    failing = t.id;
    served = await serveMcp();
    client = await connectClient(served.url, org.apiKey);
    worker = await startWorkers(db(), { pollIntervalMs: 100 });
  });
  afterAll(async () => {
    await worker?.stop();
    await client?.close();
    await served?.close();
    await new Promise((r) => judge.close(r));
    for (const [k, v] of [["OPENAI_BASE_URL", saved.base], ["OPENAI_API_KEY", saved.key]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
  });

  it("proposes, approves two of three, judges exactly those on a replay, and scores the replay per assertion with evidence", async () => {
    const proposed = await callTool(client, "save_trace_assertions", {
      traceId: failing,
      assertions: [
        { assertion: "offers a refund", targetOnEvaluatedTrace: { kind: "output" }, passCriteria: "mentions a refund", justification: [{ spanId: answerSpan, text: "refuses" }] },
        { assertion: "stays polite", failCriteria: "rude words" },
        { assertion: "answers in one sentence", targetOnEvaluatedTrace: JSON.stringify({ kind: "span", name: "answer" }) },
      ],
    });
    expect(proposed.isError, proposed.text).toBe(false);
    expect(proposed.text).toContain("3 awaiting review");
    const [refund, polite, short] = proposed.data.assertions.map((a: { id: string }) => a.id);
    expect((await callTool(client, "get_trace_assertions", { traceIds: [failing] })).text).toContain(`Trace ${failing}: no approved assertions`);
    expect((await callTool(client, "save_trace_assertions", { traceId: failing, assertions: [{ assertion: "x", approvalState: "approved" }] })).isError).toBe(true);

    // A person approves two and rejects one (the console's review queue calls this service).
    await reviewAssertions(db(), org, cliActor, { ids: [refund, short], approvalState: "approved" });
    await reviewAssertions(db(), org, cliActor, { ids: [polite], approvalState: "rejected" });
    const read = await callTool(client, "get_trace_assertions", { traceIds: [failing] });
    expect([...read.text.matchAll(ID_LINE)].map((m) => m[1])).toEqual([refund, short]);
    expect(read.text).toContain(`[ID: ${refund}] checks the output: offers a refund (pass: mentions a refund)`);
    expect(read.text).toContain(`[ID: ${short}] checks span "answer" (last occurrence): answers in one sentence`);

    // A replay judges exactly the approved two, and reads them as inherited from the original.
    const groupId = newId();
    const start = await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: FN, traceIds: [failing], experimentGroupId: groupId, git: { branch: "fix/refund" } } });
    const experimentId = start.body.experimentId as string;
    const replay = await createTrace(db(), org.organizationId, { traceFunctionKey: FN, testRunId: experimentId, originalTraceId: failing, replayAttempt: 0 });
    const replayRoot = await createSpan(db(), org.organizationId, replay.id, { name: FN, output: "Here is your refund." });
    expect(await judgeTraceAssertions(db(), org.organizationId, experimentId, replay.id, { model: "unused", options: { baseUrl: process.env.OPENAI_BASE_URL!, timeoutMs: 5000, maxRetries: 0, maxRetryDelayMs: 10, limiter: createLimiter(2) } })).toBe(2);
    expect((await callTool(client, "get_trace_assertions", { traceIds: [replay.id] })).text).toContain(`inherited from original ${failing}`);
    expect((await callTool(client, "save_trace_assertions", { traceId: replay.id, assertions: [{ assertion: "x" }] })).text).toContain(`original trace ${failing}`);

    // The agent scores the replay per assertion with evidence (lineage mode).
    const labels = await callTool(client, "save_agent_labels", {
      experimentId,
      labels: [
        { originalTraceId: failing, assertionId: refund, label: true, annotation: "offers the refund", evidence: [{ spanId: replayRoot.id, text: "Here is your refund." }] },
        { originalTraceId: failing, assertionId: short, skip: true },
      ],
    });
    expect(labels.text).toMatch(new RegExp(`- ${failing}: set \\(trace ${replay.id}\\) \\[assertion ${refund}\\]; effective PASS`));
    expect(labels.text).toMatch(new RegExp(`- ${failing}: skipped \\(trace ${replay.id}\\) \\[assertion ${short}\\]; effective skipped`));
    const got = await callTool(client, "get_trace_labels", { traceIds: [replay.id] });
    expect(got.text).toContain(`[${refund}] PASS (agent, not validated): offers a refund`);
    expect(got.text).toContain(`Evidence [span ${replayRoot.id}]: Here is your refund.`);

    const report = await callTool(client, "get_experiment", { experimentId });
    expect(report.text).toContain(`[ID: ${refund}] offers a refund: 1 passed, 0 failed`);
    expect(report.text).toContain(`Evidence [span ${replayRoot.id}]: Here is your refund.`);
    expect(report.text).toContain("branch fix/refund");
    expect(report.text).not.toContain("stays polite");
    expect(report.data.group).toEqual({ id: groupId, name: null });
  });

  it("save_trace_assertions refuses a replay trace, naming its original, and an unknown trace, writing nothing", async () => {
    const original = await createTrace(db(), org.organizationId, { traceFunctionKey: FN });
    const replay = await createTrace(db(), org.organizationId, { traceFunctionKey: FN, originalTraceId: original.id });
    const onReplay = await callTool(client, "save_trace_assertions", { traceId: replay.id, assertions: [{ assertion: "x" }] });
    expect(onReplay).toMatchObject({ isError: true, text: `Trace ${replay.id} is a replay; save assertions on its original trace ${original.id} instead. Nothing was written.` });
    const unknown = newId();
    const missing = await callTool(client, "save_trace_assertions", { traceId: unknown, assertions: [{ assertion: "x" }] });
    expect(missing).toMatchObject({ isError: true, text: `Trace ${unknown} not found in this organization; nothing was written.` });
    const foreign = await callTool(await connectClient(served.url, other.apiKey), "save_trace_assertions", { traceId: original.id, assertions: [{ assertion: "x" }] });
    expect(foreign.text).toBe(`Trace ${original.id} not found in this organization; nothing was written.`);
    const read = await callTool(client, "get_trace_assertions", { traceIds: [original.id, replay.id] });
    expect(read.data.traces.every((t: { assertions: unknown[]; pending: number }) => t.assertions.length === 0 && t.pending === 0)).toBe(true);
  });

  it("archive_trace_assertions is all or nothing", async () => {
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: FN });
    const [a, b] = (await callTool(client, "save_trace_assertions", { traceId: t.id, assertions: [{ assertion: "a" }, { assertion: "b" }] })).data.assertions;
    const stranger = newId();
    const bad = await callTool(client, "archive_trace_assertions", { traceId: t.id, assertionIds: [a.id, stranger] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toBe(`Assertion ${stranger} is not an active assertion of trace ${t.id}; nothing was archived.`);
    const ok = await callTool(client, "archive_trace_assertions", { traceId: t.id, assertionIds: [a.id, b.id] });
    expect(ok.text).toContain("Archived 2 assertion(s)");
    const again = await callTool(client, "archive_trace_assertions", { traceId: t.id, assertionIds: [a.id] });
    expect(again).toMatchObject({ isError: true, text: `Assertion ${a.id} is not an active assertion of trace ${t.id}; nothing was archived.` });
  });

  it("the four category tools; a category and an assignee on an assertion", async () => {
    const created = await callTool(client, "save_assertion_category", { title: "Policy", description: "Follows the refund policy" });
    const id = created.data.category.id;
    expect(created.text).toContain(`Created assertion category [ID: ${id}] Policy`);
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: FN });
    const a = await callTool(client, "save_trace_assertions", { traceId: t.id, assertions: [{ assertion: "cites the policy", category_assertion_id: id, assigneeEmail: org.email }] });
    expect(a.text).toContain(`Assignee: ${org.email}`);
    expect(a.text).toContain(`Category: Policy [${id}]`);
    expect((await callTool(client, "save_trace_assertions", { traceId: t.id, assertions: [{ assertion: "x", assigneeEmail: other.email }] })).isError).toBe(true);
    expect((await callTool(client, "list_assertion_categories")).text).toContain(`[ID: ${id}] Policy · 1 assertion(s)`);
    expect((await callTool(client, "get_assertion_category", { id })).text).toContain("Follows the refund policy");
    expect((await callTool(client, "delete_assertion_category", { id })).text).toContain("1 assertion(s) are now uncategorized");
    expect((await callTool(client, "get_assertion_category", { id })).isError).toBe(true);
  });

  it("experiments: name and group, groups, graders attached and re-run with progress", async () => {
    const original = await createTrace(db(), org.organizationId, { traceFunctionKey: FN });
    const start = await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: FN, traceIds: [original.id] } });
    const experimentId = start.body.experimentId as string;
    const replay = await createTrace(db(), org.organizationId, { traceFunctionKey: FN, testRunId: experimentId, originalTraceId: original.id, replayAttempt: 0 });
    await createSpan(db(), org.organizationId, replay.id, { name: FN, output: "ok" });
    expect((await callTool(client, "save_experiment", { testRunId: experimentId })).isError).toBe(true);
    const named = await callTool(client, "save_experiment", { experimentId, testRunId: experimentId, name: "refund fix", notes: "try 1" });
    expect(named.text).toContain(`[ID: ${experimentId}] refund fix`);
    const group = await callTool(client, "save_experiment_group", { experimentIds: [experimentId], testRunIds: [experimentId], name: "refunds" });
    const groupId = group.data.group.id;
    expect(group.text).toContain("refunds · 1 experiment(s)");
    expect((await callTool(client, "save_experiment_group", { experimentGroupId: groupId, notes: "two tries" })).text).toContain("Notes: two tries");
    expect((await callTool(client, "list_experiment_groups")).text).toContain(`[ID: ${groupId}] refunds`);
    expect((await callTool(client, "get_experiment_group", { experimentGroupId: groupId })).text).toContain(`[ID: ${experimentId}] refund fix`);

    const grader = (await createGrader(db(), org.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse({ traceFunctionKey: FN, name: "no errors", kind: "rule", live: false, config: { check: { op: "noErrors" } } }))).grader.id;
    expect((await callTool(client, "rerun_graders_on_experiment", { experimentId })).isError).toBe(true);
    expect((await callTool(client, "add_graders_to_experiment", { experimentId, graderIds: [grader] })).text).toContain(grader);
    const run = await callTool(client, "rerun_graders_on_experiment", { experimentId, waitSeconds: 30 });
    expect(run.text).toMatch(/Started a re-run .* completed\. Graded 1 trace\(s\) with 1 grader\(s\)/);
    expect((await callTool(client, "get_experiment", { experimentId })).text).toContain(`no errors [${grader}]: pass rate 100% (1 passed, 0 failed, 0 errored)`);
    expect((await callTool(client, "remove_graders_from_experiment", { experimentId, graderIds: [grader] })).text).toContain("none");
    expect((await callTool(client, "add_graders_to_experiment_group", { experimentGroupId: groupId, graderIds: [grader] })).text).toContain(grader);
    const groupRun = await callTool(client, "rerun_graders_on_experiment", { experimentGroupId: groupId, waitSeconds: 30 });
    expect(groupRun.text).toContain("completed");
    expect((await callTool(client, "remove_graders_from_experiment_group", { experimentGroupId: groupId, graderIds: [grader] })).text).toContain("none");
    const foreign = await connectClient(served.url, other.apiKey);
    expect((await callTool(foreign, "get_experiment", { experimentId })).isError).toBe(true);
    expect((await callTool(foreign, "get_experiment_group", { experimentGroupId: groupId })).isError).toBe(true);
    await foreign.close();
  });

  it("generates drafts awaiting review and label evidence with the judge model; without a model it says what to configure", async () => {
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: FN });
    const span = await createSpan(db(), org.organizationId, t.id, { name: FN, output: "No refunds." });
    const drafted = await callTool(client, "generate_trace_assertions", { traceId: t.id, guidance: "refund policy" });
    expect(drafted.isError, drafted.text).toBe(false);
    expect(drafted.text).toContain("Drafted 1 assertion(s)");
    expect(drafted.text).toContain(`checks the output: offers the refund the policy allows (pass: a refund is offered) — pending`);
    expect(drafted.data.assertions[0].justification).toEqual([{ spanId: span.id, text: "the answer refuses" }]);
    const again = await callTool(client, "generate_trace_assertions", { traceId: t.id });
    expect(again.text).toContain("already has 1 draft assertion(s) awaiting review");
    // Two calls at once: the second joins the running generation, so the model is asked once.
    const before = judgeCalls;
    const both = await Promise.all([1, 2].map(() => callTool(client, "generate_trace_assertions", { traceId: t.id, regenerate: true })));
    expect(judgeCalls - before).toBe(1);
    expect(both[1].data.assertions[0].id).toBe(both[0].data.assertions[0].id);
    const replaced = await callTool(client, "generate_trace_assertions", { traceId: t.id, regenerate: true });
    expect(replaced.data.assertions[0].id).not.toBe(drafted.data.assertions[0].id);
    const assertionId = replaced.data.assertions[0].id;
    await callTool(client, "save_agent_labels", { labels: [{ traceId: t.id, assertionId, label: false }] });
    const evidence = await callTool(client, "generate_label_evidence", { traceId: t.id, assertionId });
    expect(evidence.text).toContain(`- [span ${span.id}] ${FN} (function): this span refuses the refund`);
    expect(evidence.text).toContain("attached to the current agent verdict");
    expect((await callTool(client, "get_trace_labels", { traceIds: [t.id] })).text).toContain(`Evidence [span ${span.id}]: this span refuses the refund`);

    delete process.env.OPENAI_BASE_URL;
    delete process.env.OPENAI_API_KEY;
    resetEnvCache();
    try {
      const none = await callTool(client, "generate_trace_assertions", { traceId: t.id, regenerate: true });
      expect(none.isError).toBe(true);
      expect(none.text).toContain("set OPENAI_API_KEY");
      expect((await callTool(client, "generate_label_evidence", { traceId: t.id, assertionId })).text).toContain("OPENAI_BASE_URL");
    } finally {
      process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(judge.address() as AddressInfo).port}/v1`;
      resetEnvCache();
    }
  });
});
