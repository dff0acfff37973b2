// The SDK's four framework integrations against the real Reprise handlers: each framework runs a two-step agent
// (one model call, one tool call) against a local fake model server, the SDK delivers over real HTTP to the OTLP
// route, the trace is read back through the API (tree, types, tokens, instrumentation), and the sim plan refuses
// to turn content off for the nodes the framework recorded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reprise } from "../../sdks/typescript/src/client.ts";
import { type FakeModelServer, startFakeAnthropic, startFakeOpenAI, TOOL_NAME, USAGE } from "../../sdks/typescript/test/integrations/fake-models.ts";
import { CLAUDE_TOOL, runClaudeAgent, runLangGraph, runOpenAIAgents, runVercelAI } from "../../sdks/typescript/test/integrations/scenarios.ts";
import { GET as getSpan } from "../../app/api/sdk/spans/[id]/route.ts";
import { GET as listTraces } from "../../app/api/sdk/traces/route.ts";
import { GET as getSimPlan, POST as postSimPlan } from "../../app/api/sdk/sim-plan/route.ts";
import { postOtlpTraces as postOtlp } from "../../server/ingest/otlp/otlp.http.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../harness.ts";
import { serveRoutes, type ServedRoutes } from "../http-server.ts";

interface SpanRead {
  id: string;
  parentSpanId: string | null;
  name: string;
  type: string;
  metadata: { instrumentation: string | null; source: string };
  metrics: { tokens: { input: number; output: number; total: number } | null; model: string | null };
}

interface Tree {
  name: string;
  type: string;
  children?: Tree[];
}

describe("framework integrations against Reprise", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let reprise: ServedRoutes;
  let openai: FakeModelServer;
  let anthropic: FakeModelServer;
  let client: Reprise;

  beforeAll(async () => {
    org = await createTestOrg(db());
    reprise = await serveRoutes({ "/api/sdk/otel/v1/traces": { POST: postOtlp }, "/api/sdk/sim-plan": { GET: getSimPlan } });
    openai = await startFakeOpenAI();
    anthropic = await startFakeAnthropic(CLAUDE_TOOL);
    client = new Reprise({ apiKey: org.apiKey, serviceUrl: reprise.url });
  });
  afterAll(async () => {
    await client?.close(5_000);
    await Promise.all([reprise?.close(), openai?.close(), anthropic?.close()]);
  });

  /** The one trace of `traceFunctionKey`, its spans read one by one through the API, as a tree. */
  async function readBack(traceFunctionKey: string) {
    const listed = await call(listTraces, { apiKey: org.apiKey, path: `/api/sdk/traces?traceFunctionKey=${encodeURIComponent(traceFunctionKey)}` });
    expect(listed.status).toBe(200);
    expect(listed.body.traces).toHaveLength(1);
    const trace = listed.body.traces[0];
    const rows = await db().prisma.span.findMany({ where: { organizationId: org.organizationId, traceId: trace.id }, select: { id: true }, orderBy: { startedAt: "asc" } });
    const spans: SpanRead[] = [];
    for (const row of rows) {
      const res = await call(getSpan, { apiKey: org.apiKey, params: { id: row.id } });
      expect(res.status).toBe(200);
      spans.push(res.body.span);
    }
    const build = (span: SpanRead): Tree => {
      const children = spans.filter((s) => s.parentSpanId === span.id).map(build);
      return children.length > 0 ? { name: span.name, type: span.type, children } : { name: span.name, type: span.type };
    };
    return { trace, spans, tree: spans.filter((s) => s.parentSpanId === null).map(build) };
  }

  /** Asks the sim plan to turn content off for `names`; every one must be refused as framework-recorded. */
  async function expectContentOffRefused(traceFunctionKey: string, names: string[]) {
    const decisions = names.map((name) => ({ traceFunctionKey, name, captureContent: false }));
    const res = await call(postSimPlan, { apiKey: org.apiKey, body: { decisions } });
    expect(res.status).toBe(200);
    expect(res.body.nodes.filter((n: { traceFunctionKey: string }) => n.traceFunctionKey === traceFunctionKey)).toEqual([]);
    expect(res.body.refused.map((r: { name: string }) => r.name).sort()).toEqual([...names].sort());
    for (const refused of res.body.refused) expect(refused.reason).toMatch(/framework integration/);
    const plan = await call(getSimPlan, { apiKey: org.apiKey });
    expect(plan.body.nodes.filter((n: { traceFunctionKey: string }) => n.traceFunctionKey === traceFunctionKey)).toEqual([]);
  }

  const llmTokens = { input: USAGE.input, output: USAGE.output, total: USAGE.input + USAGE.output };

  it("OpenAI Agents SDK: workflow, agent, model call and tool call", async () => {
    expect(await runOpenAIAgents(client, openai.url, "weather workflow")).toBe("sunny in Paris");
    expect(await client.flushTraces()).toBe(true);
    const { trace, spans, tree } = await readBack("weather workflow");
    expect(trace).toMatchObject({ status: "completed", spanCount: 6, tokens: { input: USAGE.input, output: USAGE.output } });
    expect(tree).toEqual([
      {
        name: "weather workflow",
        type: "agent",
        children: [
          {
            name: "task weather workflow",
            type: "custom",
            children: [{ name: "Weather agent", type: "agent", children: [{ name: "turn 1", type: "custom", children: [{ name: "response", type: "llm" }, { name: TOOL_NAME, type: "function" }] }] }],
          },
        ],
      },
    ]);
    expect(new Set(spans.map((s) => s.metadata.instrumentation))).toEqual(new Set(["openai-agents"]));
    expect(spans.find((s) => s.name === "response")!.metrics).toMatchObject({ tokens: llmTokens, model: "gpt-fake" });
    await expectContentOffRefused("weather workflow", ["Weather agent", "response", TOOL_NAME]);
  });

  it("LangGraph: graph, nodes, model call and tool call", async () => {
    expect(await runLangGraph(client, openai.url)).toBe("sunny in Paris");
    expect(await client.flushTraces()).toBe(true);
    const { trace, spans, tree } = await readBack("LangGraph");
    expect(trace).toMatchObject({ status: "completed", spanCount: 5, model: "gpt-fake" });
    expect(tree).toEqual([
      {
        name: "LangGraph",
        type: "agent",
        children: [
          { name: "agent", type: "custom", children: [{ name: "ChatOpenAI", type: "llm" }] },
          { name: "tools", type: "custom", children: [{ name: TOOL_NAME, type: "function" }] },
        ],
      },
    ]);
    expect(new Set(spans.map((s) => s.metadata.instrumentation))).toEqual(new Set(["langgraph"]));
    expect(spans.find((s) => s.name === "ChatOpenAI")!.metrics).toMatchObject({ tokens: llmTokens, model: "gpt-fake" });
    await expectContentOffRefused("LangGraph", ["agent", "tools", "ChatOpenAI", TOOL_NAME]);
  });

  it("Claude Agent SDK: query, assistant turns with model and usage, tool use with its result", async () => {
    expect(await runClaudeAgent(client, anthropic.url)).toBe("It is sunny in Paris.");
    expect(await client.flushTraces()).toBe(true);
    const { trace, spans, tree } = await readBack("claude-agent-sdk");
    expect(trace).toMatchObject({ status: "completed", spanCount: 4, model: "claude-fake" });
    expect(tree).toEqual([
      {
        name: "claude-agent-query",
        type: "agent",
        children: [
          { name: "claude-fake", type: "llm" },
          { name: CLAUDE_TOOL, type: "function" },
          { name: "claude-fake", type: "llm" },
        ],
      },
    ]);
    expect(new Set(spans.map((s) => s.metadata.instrumentation))).toEqual(new Set(["claude-agent-sdk"]));
    for (const turn of spans.filter((s) => s.type === "llm")) expect(turn.metrics).toMatchObject({ tokens: { input: USAGE.input }, model: "claude-fake" });
    await expectContentOffRefused("claude-agent-sdk", ["claude-fake", CLAUDE_TOOL]);
  });

  it("AI SDK: the model call and the tool call under withTrace", async () => {
    expect(await runVercelAI(client, openai.url, "weather-ai-sdk")).toEqual(["sunny in Paris"]);
    expect(await client.flushTraces()).toBe(true);
    const { trace, spans, tree } = await readBack("weather-ai-sdk");
    expect(trace).toMatchObject({ status: "completed", spanCount: 3, tokens: { input: USAGE.input, output: USAGE.output } });
    expect(tree).toEqual([{ name: "weather-ai-sdk", type: "function", children: [{ name: "gpt-fake", type: "llm" }, { name: TOOL_NAME, type: "function" }] }]);
    expect(spans.map((s) => s.metadata.instrumentation)).toEqual(["trace", "vercel-ai", "vercel-ai"]);
    expect(spans.find((s) => s.name === "gpt-fake")!.metrics).toMatchObject({ tokens: llmTokens, model: "gpt-fake" });
    await expectContentOffRefused("weather-ai-sdk", ["gpt-fake", TOOL_NAME]);
  });

  it("turning off a wrapper span above a framework cascades to no framework-recorded node", async () => {
    const plan = client.withSpan("plan", async () => runLangGraph(client, openai.url));
    expect(await client.withTrace("cascade", () => plan())()).toBe("sunny in Paris");
    expect(await client.flushTraces()).toBe(true);
    const res = await call(postSimPlan, { apiKey: org.apiKey, body: { decisions: [{ traceFunctionKey: "cascade", name: "plan", captureContent: false }] } });
    expect(res.status).toBe(200);
    expect(res.body.nodes).toContainEqual({ traceFunctionKey: "cascade", name: "plan", captureContent: false });
    expect(res.body.refused).toEqual([]);
    expect(res.body.cascaded ?? []).toEqual([]); // everything beneath "plan" was recorded by LangGraph: locked
  });
});
