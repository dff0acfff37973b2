// Every tool through the official MCP client against the served endpoint; each write is read back over REST.
import { cliActor } from "../auth/audit/actor.ts";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import type { ServedRoutes } from "../../test/http-server.ts";
import { getDatasetById, listDatasetTraces } from "../datasets/datasets.http.ts";
import { listGraders } from "../graders/graders.http.ts";
import { upsertGraderLabel } from "../labels/grader-labels.queries.ts";
import { getTraceLabels } from "../labels/labels.http.ts";
import { saveHumanLabels } from "../labels/trace-labels.service.ts";
import { callTool, connectClient, serveMcp } from "./testing/mcp-client.ts";

const KEY = "support-bot";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe("MCP tools", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let served: ServedRoutes;
  let client: Client;
  let failing: string;
  let passing: string;
  let unlabeled: string;
  let llmSpanId: string;
  const longOutput = `The refund policy says ${"x".repeat(5000)} END`;

  beforeAll(async () => {
    org = await createTestOrg(db(), "Acme");
    other = await createTestOrg(db(), "Other");
    served = await serveMcp();
    client = await connectClient(served.url, org.apiKey);
    const base = Date.now() - 60_000;
    const make = async (i: number, name: string, metadata: Record<string, unknown>, output: string) => {
      const t = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY, name, metadata, startedAt: new Date(base + i * 1000) });
      const root = await createSpan(db(), org.organizationId, t.id, { name: KEY, traceFunctionKey: KEY, input: { question: `q${i}` }, output, startedAt: new Date(base + i * 1000) });
      const llm = await createSpan(db(), org.organizationId, t.id, {
        name: "call-llm", type: "llm", parentSpanId: root.id, traceFunctionKey: KEY, input: [{ role: "user", content: `q${i}` }], output: longOutput,
        model: "gpt-4o", inputTokens: 10, outputTokens: 20, totalTokens: 30, spanData: { reasoning: "thinking hard" }, startedAt: new Date(base + i * 1000 + 10),
      });
      return { id: t.id, llm: llm.id };
    };
    const a = await make(1, "refund request for order", { environment: "prod", customer: "ACME" }, "Sorry, no refunds.");
    failing = a.id;
    llmSpanId = a.llm;
    passing = (await make(2, "shipping question", { environment: "staging" }, "It ships tomorrow.")).id;
    unlabeled = (await make(3, "greeting", {}, "Hello!")).id;
    await saveHumanLabels(db(), org, cliActor, [
      { traceId: failing, label: false, annotation: "Refused a valid refund" },
      { traceId: passing, label: true, annotation: "Correct" },
    ]);
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  const rest = async (handler: Parameters<typeof call>[0], path: string, params?: Record<string, string>) => (await call(handler, { apiKey: org.apiKey, path, params })).body;

  it("list_trace_functions gives each key with trace count and last activity", async () => {
    const r = await callTool(client, "list_trace_functions");
    expect(r.text).toMatch(new RegExp(`- ${KEY}: 3 traces, last activity \\d{4}-`));
    expect(r.data.traceFunctions[0]).toMatchObject({ traceFunctionKey: KEY, traceCount: 3 });
  });

  it("search_traces finds the failing traces, newest first, with every filter", async () => {
    const failingOnly = await callTool(client, "search_traces", { traceFunctionKey: KEY, validated: true, labelResult: false });
    expect(failingOnly.data.traces.map((t: any) => t.id)).toEqual([failing]);
    expect(failingOnly.text).toContain(`[ID: ${failing}]`);
    expect(failingOnly.text).toContain("Label: FAIL (human, validated)");
    const all = await callTool(client, "search_traces", { traceFunctionKey: KEY, limit: "1" });
    expect(all.data.traces.map((t: any) => t.id)).toEqual([unlabeled]);
    const ids = async (args: Record<string, unknown>) => (await callTool(client, "search_traces", { traceFunctionKey: KEY, ...args })).data.traces.map((t: any) => t.id);
    expect(await ids({})).toEqual([unlabeled, passing, failing]);
    expect(await ids({ environment: "PROD" })).toEqual([failing]);
    expect(await ids({ callerMetadata: { Customer: "acme" } })).toEqual([failing]);
    expect(await ids({ callerMetadata: JSON.stringify({ customer: "other" }) })).toEqual([]);
    expect(await ids({ name: "request order" })).toEqual([failing]);
    expect(await ids({ name: "order request" })).toEqual([]);
    expect(await ids({ nameContains: "SHIPP" })).toEqual([passing]);
    expect(await ids({ searchQuery: "ships tomorrow" })).toEqual([passing]);
    expect(await ids({ traceFilterRegex: "no refunds?\\." })).toEqual([failing]);
    expect(await ids({ traceIds: [passing, unlabeled] })).toEqual([unlabeled, passing]);
    expect(await ids({ labelSource: "human", labelResult: true })).toEqual([passing]);
    expect(await ids({ validated: "false" })).toEqual([]);
    expect(await ids({ status: "pending" })).toEqual([]);
    expect(await ids({ createdAfter: "2000-01-01", createdBefore: "2999-12-31" })).toHaveLength(3);
    expect(await ids({ hasDbSnapshot: true })).toEqual([]);
    const bad = await callTool(client, "search_traces", { traceFunctionKey: KEY, createdAfter: "2025-02-30" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/createdAfter/);
    expect((await callTool(client, "search_traces", { traceFunctionKey: KEY, traceFilterRegex: "(" })).isError).toBe(true);
  });

  it("get_traces shows key, label, annotation, tokens, model and span ids, cuts long fields with a get_span_field pointer", async () => {
    const r = await callTool(client, "read_traces", { traceIds: [failing, passing] });
    expect(r.isError).toBe(false);
    const [first, second] = r.text.split("\n\n---\n\n");
    expect(first).toContain(`traceFunctionKey: ${KEY}`);
    expect(first).toContain("Label: FAIL (human, validated)");
    expect(first).toContain("Annotation: Refused a valid refund");
    expect(first).toContain("Tokens: in 10, out 20, cached 0, total 30");
    expect(first).toContain("Model: gpt-4o");
    expect(first).toContain(`[ID: ${llmSpanId}] call-llm (llm`);
    expect(first).toContain("reasoning: thinking hard");
    expect(first).toContain(`get_span_field {traceId: "${failing}", spanId: "${llmSpanId}", field: "output"}`);
    expect(first).not.toContain(" END");
    expect(second).toContain("Label: PASS");
    const full = await callTool(client, "get_traces", { traceIds: [failing], scope: "full" });
    expect(full.text).toContain(" END");
  });

  it("get_span_field reads one field whole, by span id or by name and occurrence", async () => {
    const byId = await callTool(client, "get_span_field", { traceId: failing, spanId: llmSpanId, field: "output" });
    expect(byId.text).toContain(longOutput);
    expect(byId.data).toMatchObject({ spanId: llmSpanId, field: "output", truncated: false });
    const byName = await callTool(client, "read_span_field", { traceId: failing, name: "call-llm", occurrence: "0", field: "reasoning", maxChars: 5 });
    expect(byName.data).toMatchObject({ spanId: llmSpanId, value: "think", truncated: true });
    expect((await callTool(client, "get_span_field", { traceId: failing, spanId: llmSpanId, field: "model" })).isError).toBe(true);
    const foreign = await callTool(await connectClient(served.url, other.apiKey), "get_span_field", { traceId: failing, spanId: llmSpanId, field: "output" });
    expect(foreign.isError).toBe(true);
    expect(foreign.text).toMatch(/not found/);
  });

  it("save_agent_labels answers one parseable line per label, and the verdicts read back over REST", async () => {
    const r = await callTool(client, "save_agent_labels", {
      labels: [
        { traceId: unlabeled, label: false, annotation: "Greeting ignored the question", confidence: "High" },
        { traceId: passing, skip: true },
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^Update complete: set 1 verdict\(s\)/);
    expect(r.text).toContain(`- ${unlabeled}: set; effective FAIL`);
    expect(r.text).toContain(`- ${passing}: skipped; effective skipped`);
    const back = await rest(getTraceLabels, `/api/sdk/traces/labels?traceIds=${unlabeled}`);
    expect(back.labels[0]).toMatchObject({ traceId: unlabeled, label: false, labelSource: "agent", approved: false, annotation: "Greeting ignored the question" });
    // Old name, archive mode, stringified arrays.
    const archived = await callTool(client, "update_agent_labels", { labels: JSON.stringify([{ traceId: unlabeled, archive: true }]) });
    expect(archived.text).toContain(`- ${unlabeled}: archived; effective unlabeled`);
    expect((await rest(getTraceLabels, `/api/sdk/traces/labels?traceIds=${unlabeled}`)).labels[0].labelStatus).toBe("unlabeled");
  });

  it("save_agent_labels names foreign traces with the phrases the plugins look for, and writes nothing", async () => {
    const outsider = await connectClient(served.url, other.apiKey);
    const none = await callTool(outsider, "save_agent_labels", { labels: [{ traceId: failing, label: true, annotation: "x" }] });
    expect(none.isError).toBe(true);
    expect(none.text).toContain("None of the provided trace IDs belong to this organization");
    const mixed = await callTool(client, "save_agent_labels", { labels: [{ traceId: unlabeled, label: true, annotation: "x" }, { traceId: crypto.randomUUID(), label: true, annotation: "y" }] });
    expect(mixed.isError).toBe(true);
    expect(mixed.text).toContain("Skipped (not in this organization)");
    expect((await rest(getTraceLabels, `/api/sdk/traces/labels?traceIds=${unlabeled}`)).labels[0].labelStatus).toBe("unlabeled");
    const noMode = await callTool(client, "save_agent_labels", { labels: [{ traceId: unlabeled }] });
    expect(noMode.isError).toBe(true);
    expect(noMode.text).toMatch(/label/);
    await outsider.close();
  });

  it("save_human_labels records validated verdicts", async () => {
    const r = await callTool(client, "set_human_labels", { labels: [{ traceId: unlabeled, label: true, annotation: "Fine after all" }] });
    expect(r.text).toContain(`- ${unlabeled}: set; effective PASS`);
    expect((await rest(getTraceLabels, `/api/sdk/traces/labels?traceIds=${unlabeled}`)).labels[0]).toMatchObject({ label: true, labelSource: "human", approved: true });
    const labels = await callTool(client, "get_trace_labels", { traceIds: [unlabeled] });
    expect(labels.text).toContain(`Trace ${unlabeled}: PASS (human, validated)`);
  });

  it("graders and datasets: save, list, add and remove members, re-run; every write visible over REST", async () => {
    const created = await callTool(client, "save_grader", { traceFunctionKey: KEY, name: "polite", evaluationFocus: "Tone", passCriteria: "Polite", failCriteria: "Rude" });
    expect(created.isError).toBe(false);
    const graderId = created.data.grader.id;
    expect(created.data.grader.config.instructions).toBe("Evaluation focus: Tone\n\nPass criteria: Polite\n\nFail criteria: Rude");
    // Same name again: an update; "" clears one field and the others are kept.
    const updated = await callTool(client, "save_grader", { traceFunctionKey: KEY, name: "polite", failCriteria: "", model: "judge-2" });
    expect(updated.data).toMatchObject({ created: false, grader: { id: graderId, config: { model: "judge-2", instructions: "Evaluation focus: Tone\n\nPass criteria: Polite" } } });
    const byRest = await rest(listGraders, `/api/sdk/graders?traceFunctionKey=${KEY}`);
    expect(byRest.graders[0]).toMatchObject({ id: graderId, kind: "llm_judge", config: { model: "judge-2" } });
    expect((await callTool(client, "list_graders", { traceFunctionKey: KEY })).text).toContain(`[ID: ${graderId}]`);
    const page = await callTool(client, "list_graders", { traceFunctionKey: KEY, searchQuery: "NOTHING-LIKE-IT" });
    expect(page).toMatchObject({ text: `No graders for ${KEY}.`, data: { graders: [], nextCursor: null } });
    expect(await callTool(client, "list_graders", { traceFunctionKey: KEY, cursor: "-1" })).toMatchObject({ isError: true, text: "cursor is not a cursor returned by list_graders." });

    const ds = await callTool(client, "create_dataset", { traceFunctionKey: KEY, name: `${KEY} #1`, description: "failing refunds" });
    const datasetId = ds.data.dataset.id;
    expect(ds.text).toContain("Created dataset");
    expect((await callTool(client, "save_dataset", { traceFunctionKey: KEY, name: `${KEY} #1` })).data.created).toBe(false);
    const added = await callTool(client, "add_traces_to_dataset", { datasetId, traceIds: [failing, passing, crypto.randomUUID()] });
    expect(added.text).toMatch(/^Added 2 trace\(s\) to dataset .*; skipped 1; already present 0\./);
    const again = await callTool(client, "add_traces_to_dataset", { datasetId, traceIds: [failing] });
    expect(again.text).toMatch(/Added 0 .*already present 1/);
    const removed = await callTool(client, "remove_traces_from_dataset", { datasetId, traceIds: [passing] });
    expect(removed.text).toMatch(/^Removed 1 trace/);
    expect((await rest(listDatasetTraces, `/api/sdk/datasets/${datasetId}/traces`, { id: datasetId })).traceIds).toEqual([failing]);
    expect((await callTool(client, "search_traces", { traceFunctionKey: KEY, datasetId })).data.traces.map((t: any) => t.id)).toEqual([failing]);

    expect((await callTool(client, "add_graders_to_dataset", { datasetId, graderIds: [graderId] })).text).toMatch(/^Assigned 1 grader/);
    const listed = await callTool(client, "list_datasets", { traceFunctionKey: KEY });
    expect(listed.text).toContain(`[ID: ${datasetId}] · ${KEY} · 1 trace · graders: polite (${graderId})`);
    const rerun = await callTool(client, "rerun_graders_on_dataset", { datasetId, waitSeconds: 0 });
    expect(rerun.text).toMatch(/^Started a re-run [0-9a-f-]+ of 1 grader\(s\): (pending|running)/);
    const joined = await callTool(client, "rerun_graders_on_dataset", { datasetId, waitSeconds: 0 });
    expect(joined.text).toMatch(/^Joined the running re-run/);
    expect(joined.data.run.id).toBe(rerun.data.run.id);
    expect((await callTool(client, "remove_graders_from_dataset", { datasetId, graderIds: [graderId] })).text).toMatch(/^Unassigned 1 grader/);
    const dataset = await rest(getDatasetById, `/api/sdk/datasets/${datasetId}`, { id: datasetId });
    expect(dataset.dataset).toMatchObject({ id: datasetId, description: "failing refunds", traceCount: 1, graders: [] });
    // Another organization's dataset is not found.
    const outsider = await connectClient(served.url, other.apiKey);
    const foreign = await callTool(outsider, "add_traces_to_dataset", { datasetId, traceIds: [failing] });
    expect(foreign.isError).toBe(true);
    expect(foreign.text).toMatch(/not found/i);
    await outsider.close();
  });

  it("get_grader_labels reads every grader's verdict on traces, or one grader's latest", async () => {
    expect((await callTool(client, "get_grader_labels", { traceIds: [passing] })).text).toBe("No grader labels.");
    const grader = (await callTool(client, "save_grader", { traceFunctionKey: KEY, name: "accurate", passCriteria: "Answers the question" })).data.grader;
    await upsertGraderLabel(db(), { organizationId: org.organizationId, traceId: failing, graderId: grader.id, label: false, labelReason: "Ignored the policy", labelConfidence: "High", source: "live_grader" });
    const byTrace = await callTool(client, "get_grader_labels", { traceIds: [failing] });
    expect(byTrace.text).toContain(`- trace ${failing} · grader accurate (${grader.id}, active, version 1): FAIL [live_grader`);
    expect(byTrace.text).toContain("Reason: Ignored the policy");
    const byGrader = await callTool(client, "read_grader_labels", { graderId: grader.id, limit: 5 });
    expect(byGrader.data.labels).toHaveLength(1);
    expect((await callTool(client, "get_grader_labels", {})).isError).toBe(true);
    const foreign = await callTool(await connectClient(served.url, other.apiKey), "get_grader_labels", { graderId: grader.id });
    expect(foreign.isError).toBe(true);
    expect(foreign.text).toMatch(/not found/);
    expect(UUID.test(grader.id)).toBe(true);
  });
});
