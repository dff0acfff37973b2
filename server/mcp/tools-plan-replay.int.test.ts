// The sim plan, replay and "not in Reprise" tools through the official MCP client, and the full tool list.
import { cliActor } from "../auth/audit/actor.ts";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import type { ServedRoutes } from "../../test/http-server.ts";
import { saveHumanLabels } from "../labels/trace-labels.service.ts";
import { postReplayStart } from "../replay/replay.http.ts";
import { getSimPlanRoute, postSimPlanRoute } from "../sim-plan/sim-plan.http.ts";
import { callTool, connectClient, serveMcp } from "./testing/mcp-client.ts";

const KEY = "planner";

describe("MCP sim plan, replay and unsupported tools", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let served: ServedRoutes;
  let client: Client;
  let original: string;

  beforeAll(async () => {
    org = await createTestOrg(db(), "Acme");
    other = await createTestOrg(db(), "Other");
    served = await serveMcp();
    client = await connectClient(served.url, org.apiKey);
    // handle (root) → retrieve → embed, and retrieve → graph-node (framework); handle → answer.
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY, startedAt: new Date(Date.now() - 10_000) });
    original = t.id;
    const s = (o: Parameters<typeof createSpan>[3]) => createSpan(db(), org.organizationId, t.id, { traceFunctionKey: KEY, ...o });
    const root = await s({ name: "handle", type: "agent", instrumentation: "trace" });
    const retrieve = await s({ name: "retrieve", parentSpanId: root.id, instrumentation: "span" });
    await s({ name: "embed", type: "llm", parentSpanId: retrieve.id, instrumentation: "span" });
    await s({ name: "graph-node", parentSpanId: retrieve.id, instrumentation: "langgraph" });
    await s({ name: "answer", type: "llm", parentSpanId: root.id, instrumentation: "span" });
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  const restPlan = async () => (await call(getSimPlanRoute, { apiKey: org.apiKey, path: "/api/sdk/sim-plan" })).body.nodes.map((n: any) => n.name).sort();

  it("get_sim_plan lists each node with type, parent, calls, traces, capture and locks", async () => {
    const r = await callTool(client, "get_sim_plan", { traceFunctionKey: KEY });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("- retrieve (function) · under handle · 1 call(s) in 1 trace(s) · content captured");
    expect(r.text).toMatch(/- handle \(agent\) · 1 call\(s\) in 1 trace\(s\) · content captured · locked \(root\)/);
    expect(r.text).toMatch(/- graph-node .* locked \(framework\)/);
  });

  it("save_sim_plan: off cascades to the unlocked nodes beneath, a node named in the same call keeps its value, locked nodes are refused", async () => {
    const off = await callTool(client, "save_sim_plan", { traceFunctionKey: KEY, nodes: [{ name: "retrieve", captureContent: false }, { name: "handle", captureContent: "false" }] });
    expect(off.text).toContain("Applied 1 decision(s), and turned off 1 node(s) beneath: embed.");
    expect(off.text).toMatch(/Refused handle: .*root span/);
    expect(off.text).toContain("- embed (llm) · under retrieve · 1 call(s) in 1 trace(s) · content OFF");
    expect(await restPlan()).toEqual(["embed", "retrieve"]);
    // Turning on changes that node only.
    await callTool(client, "save_sim_plan", { traceFunctionKey: KEY, nodes: [{ name: "retrieve", captureContent: true }] });
    expect(await restPlan()).toEqual(["embed"]);
    // Off again with embed named on in the same call: embed keeps its value.
    const named = await callTool(client, "save_sim_plan", { traceFunctionKey: KEY, nodes: [{ name: "retrieve", captureContent: false }, { name: "embed", captureContent: true }] });
    expect(named.data.cascaded).toEqual([]);
    expect(await restPlan()).toEqual(["retrieve"]);
    const locked = await callTool(client, "save_sim_plan", { traceFunctionKey: KEY, nodes: [{ name: "graph-node", captureContent: false }] });
    expect(locked.isError).toBe(true);
    expect(locked.text).toMatch(/framework integration/);
  });

  it("REST follows the same cascade", async () => {
    await call(postSimPlanRoute, { apiKey: org.apiKey, body: { decisions: [{ traceFunctionKey: KEY, name: "retrieve", captureContent: true }, { traceFunctionKey: KEY, name: "embed", captureContent: true }] } });
    const res = await call(postSimPlanRoute, { apiKey: org.apiKey, body: { decisions: [{ traceFunctionKey: KEY, name: "retrieve", captureContent: false }] } });
    expect(res.status).toBe(200);
    expect(res.body.cascaded).toEqual([{ traceFunctionKey: KEY, name: "embed" }]);
    expect(await restPlan()).toEqual(["embed", "retrieve"]);
  });

  it("replay tools: list_experiments, list_experiment_traces (fixed / unpaired, both tokens), get_replay_status", async () => {
    const start = await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: KEY, traceIds: [original], name: "try fix" } });
    expect(start.status).toBe(200);
    const experimentId: string = start.body.testRunId;
    const unknownOriginal = crypto.randomUUID();
    const replay = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY, testRunId: experimentId, originalTraceId: original, sourceTraceId: "local-replay-1", replayAttempt: 0 });
    await createSpan(db(), org.organizationId, replay.id, { name: "handle", traceFunctionKey: KEY, inputTokens: 3, outputTokens: 4, totalTokens: 7, testRunId: experimentId });

    const listed = await callTool(client, "list_experiments", { traceFunctionKey: KEY });
    expect(listed.text).toContain(`[ID: ${experimentId}] try fix · ${KEY}`);
    expect((await callTool(client, "list_experiments", { traceFunctionKey: "nothing" })).text).toBe("No experiments match.");
    expect((await callTool(client, "list_experiments", {})).data.experiments).toHaveLength(1);

    const unpaired = await callTool(client, "list_experiment_traces", { experimentId });
    expect(unpaired.text).toContain(`- [ID: ${replay.id}] unpaired · original ${original}`);
    await saveHumanLabels(db(), org, cliActor, [{ traceId: original, label: false, annotation: "broken" }]);
    // Lineage mode as the plugins send it: originalTraceId with its deprecated sourceTraceId copy, both experiment keys.
    const lineage = await callTool(client, "save_agent_labels", {
      experimentId, testRunId: experimentId,
      labels: [
        { originalTraceId: original, sourceTraceId: original, label: true, annotation: "fixed now" },
        { originalTraceId: unknownOriginal, sourceTraceId: unknownOriginal, label: true, annotation: "never replayed" },
      ],
    });
    expect(lineage.isError).toBe(false);
    expect(lineage.text).toContain(`- ${original}: set (trace ${replay.id}); effective PASS`);
    expect(lineage.text).toContain(`- ${unknownOriginal}: No replay trace found for ${unknownOriginal}`);
    expect(lineage.text).toMatch(/; effective unlabeled$/m);
    const fixed = await callTool(client, "get_experiment_traces", { testRunId: experimentId, experimentId });
    expect(fixed.text).toContain(`- [ID: ${replay.id}] fixed · original ${original} · attempt 0 · replay PASS, original FAIL · tokens replay in 3, out 4, cached 0, total 7`);
    expect(fixed.data.traces[0]).toMatchObject({ verdict: "fixed", originalTraceId: original, tokens: { total: 7 } });

    const status = await callTool(client, "get_replay_status", { experimentId });
    expect(status.text).toContain(`Experiment ${experimentId}: pending, 1 replay trace(s) stored.`);
    expect(status.text).toContain(`- local-replay-1 → ${replay.id}`);
    const foreign = await callTool(await connectClient(served.url, other.apiKey), "get_replay_status", { experimentId });
    expect(foreign.isError).toBe(true);
    expect(foreign.text).toMatch(/not found/i);
  });

  it("tools for features Reprise lacks answer one sentence as a tool error", async () => {
    for (const name of ["get_template_reference", "get_template", "save_template", "update_template", "save_trace_plan", "create_trace_plan", "confirm_trace_plan", "get_trace_plan", "list_trace_plans", "cancel_trace_plan", "get_trace_function_diagnostics", "setup_bitfab"]) {
      const r = await callTool(client, name, { planId: "x", spanType: "llm" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Reprise (has|needs) no [^.]*: .*instead\.$/);
    }
  });

  it("lists every tool of the plugins' contracts that Reprise serves once, and answers their older names too", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    const expected = [
      "get_api_key_context", "list_organizations", "list_organization_members", "get_bitfab_api_key", "get_database_connection_status",
      "list_trace_functions", "search_traces", "get_traces", "get_span_field", "get_trace_labels", "save_agent_labels", "save_human_labels",
      "get_grader_labels", "list_graders", "save_grader", "save_dataset", "list_datasets", "add_traces_to_dataset", "remove_traces_from_dataset",
      "add_graders_to_dataset", "remove_graders_from_dataset", "rerun_graders_on_dataset", "get_sim_plan", "save_sim_plan", "list_experiments",
      "list_experiment_traces", "get_replay_status", "get_template_reference", "get_template", "save_template", "save_trace_plan",
      "confirm_trace_plan", "get_trace_plan", "list_trace_plans", "cancel_trace_plan",
      "get_trace_assertions", "save_trace_assertions", "archive_trace_assertions", "generate_trace_assertions", "generate_label_evidence",
      "save_assertion_category", "list_assertion_categories", "get_assertion_category", "delete_assertion_category",
      "save_experiment", "get_experiment", "save_experiment_group", "list_experiment_groups", "get_experiment_group",
      "rerun_graders_on_experiment", "add_graders_to_experiment", "remove_graders_from_experiment",
      "add_graders_to_experiment_group", "remove_graders_from_experiment_group",
    ];
    expect(names).toEqual(expect.arrayContaining(expected));
    expect(new Set(names).size).toBe(names.length);
    const older = ["read_traces", "read_span_field", "read_trace_labels", "read_grader_labels", "update_agent_labels", "set_human_labels",
      "create_dataset", "update_template", "get_experiment_traces", "create_trace_plan", "update_trace_plan", "create_grader", "get_simforge_api_key",
      "create_experiment_group", "add_grader_to_experiment_group"];
    for (const name of older) {
      expect(names).not.toContain(name);
      const r = await callTool(client, name, {});
      expect(r.text, name).not.toMatch(/Tool .* not found/);
    }
  });
});
