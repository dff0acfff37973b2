// The OpenAI Agents SDK run for real against a local OpenAI-compatible server, recorded by the processor.
import { Agent, InputGuardrailTripwireTriggered, OpenAIResponsesModel, Runner, setTraceProcessors, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOpenAIAgentsProcessor } from "../../src/integrations/openai-agents/index.js";
import { clientAndServer, router } from "../helpers/client.js";
import { type FakeModelServer, startFakeOpenAI, TOOL_NAME, USAGE } from "./fake-models.js";
import { completions, recordedSpans, shapes, spanNamed } from "./recorded.js";

describe("OpenAI Agents SDK integration", () => {
  let model: FakeModelServer;
  beforeAll(async () => {
    model = await startFakeOpenAI();
    setTracingDisabled(false); // the Agents SDK turns tracing off when NODE_ENV is "test"
  });
  afterAll(() => model.close());
  afterEach(() => setTraceProcessors([]));

  function weatherAgent() {
    const getWeather = tool({
      name: TOOL_NAME,
      description: "Weather of a city",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => `sunny in ${city}`,
    });
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${model.url}/v1`, maxRetries: 0 });
    return new Agent({
      name: "Weather agent",
      instructions: "Answer with the weather.",
      model: new OpenAIResponsesModel(openai, "gpt-fake"),
      tools: [getWeather],
      toolUseBehavior: "stop_on_first_tool",
    });
  }

  it("records a two-step agent (one model call, one tool call) as its own trace", async () => {
    const { client, server } = await clientAndServer();
    setTraceProcessors([createOpenAIAgentsProcessor(client, { traceFunctionKey: "weather-bot" })]);
    const result = await new Runner({ workflowName: "weather workflow" }).run(weatherAgent(), "Weather in Paris?");
    expect(result.finalOutput).toBe("sunny in Paris");
    expect(await client.flushTraces()).toBe(true);

    const spans = recordedSpans(server);
    expect(shapes(spans)).toEqual([
      {
        name: "weather workflow",
        type: "agent",
        children: [
          {
            name: "task weather workflow",
            type: "custom",
            children: [
              {
                name: "Weather agent",
                type: "agent",
                children: [{ name: "turn 1", type: "custom", children: [{ name: "response", type: "llm" }, { name: TOOL_NAME, type: "function" }] }],
              },
            ],
          },
        ],
      },
    ]);
    for (const span of spans) {
      expect(span.instrumentation).toBe("openai-agents");
      expect(span.source).toBe("typescript-sdk-openai-tracing");
    }
    const response = spanNamed(spans, "response");
    expect(response.contexts).toContainEqual(expect.objectContaining({ model: "gpt-fake", inputTokens: USAGE.input, outputTokens: USAGE.output }));
    const toolSpan = spanNamed(spans, TOOL_NAME);
    expect(toolSpan.data.input).toEqual({ city: "Paris" });
    expect(toolSpan.data.output).toBe("sunny in Paris");
    const [completion] = completions(server);
    // Titled with the workflow's name, not the trace function key.
    expect(completion).toMatchObject({ traceFunctionKey: "weather-bot", name: "weather workflow", completed: true, expectedSpanCount: spans.length });
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([completion!.id]));
  });

  it("nests under the active withTrace, and the outer trace completes once", async () => {
    const { client, server } = await clientAndServer();
    setTraceProcessors([createOpenAIAgentsProcessor(client)]);
    const answer = client.withTrace("support", async (question: string) => {
      const result = await new Runner().run(weatherAgent(), question);
      return result.finalOutput;
    });
    expect(await answer("Weather in Paris?")).toBe("sunny in Paris");
    await client.flushTraces();
    const spans = recordedSpans(server);
    const root = spanNamed(spans, "support");
    expect(root.instrumentation).toBe("trace");
    const workflow = spans.find((s) => s.parentId === root.id)!;
    expect(workflow).toMatchObject({ name: "Agent workflow", type: "agent", instrumentation: "openai-agents" });
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root.traceId]));
    const done = completions(server);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ traceFunctionKey: "support", expectedSpanCount: spans.length });
  });

  it("records handoffs and guardrails with their own span types", async () => {
    const { client, server } = await clientAndServer();
    setTraceProcessors([createOpenAIAgentsProcessor(client)]);
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${model.url}/v1`, maxRetries: 0 });
    const polite = { name: "polite", execute: async () => ({ tripwireTriggered: false, outputInfo: { polite: true } }) };
    const triage = new Agent({
      name: "Triage agent",
      model: new OpenAIResponsesModel(openai, "gpt-fake"),
      handoffs: [weatherAgent()],
      inputGuardrails: [polite],
    });
    const result = await new Runner({ workflowName: "triage" }).run(triage, "Weather in Paris?");
    expect(result.lastAgent?.name).toBe("Weather agent");
    await client.flushTraces();
    const spans = recordedSpans(server);
    expect(spanNamed(spans, "handoff to Weather agent")).toMatchObject({ type: "handoff", data: { input: { from_agent: "Triage agent", to_agent: "Weather agent" } } });
    expect(spanNamed(spans, "polite")).toMatchObject({ type: "guardrail", data: { output: { triggered: false } } });
    expect(spans.filter((s) => s.type === "agent").map((s) => s.name).sort()).toEqual(["Triage agent", "Weather agent", "triage"]);

    const { client: second, server: secondServer } = await clientAndServer();
    setTraceProcessors([createOpenAIAgentsProcessor(second)]);
    const tripped = new Agent({ name: "Strict agent", model: new OpenAIResponsesModel(openai, "gpt-fake"), inputGuardrails: [{ name: "strict", execute: async () => ({ tripwireTriggered: true, outputInfo: {} }) }] });
    await expect(new Runner().run(tripped, "hi")).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered);
    await second.flushTraces();
    expect(spanNamed(recordedSpans(secondServer), "strict")).toMatchObject({ type: "guardrail", data: { output: { triggered: true } } });
  });

  it("never changes what the run returns or throws, and records the error", async () => {
    const failing = new Agent({
      name: "Broken agent",
      model: new OpenAIResponsesModel(new OpenAI({ apiKey: "sk-test", baseURL: `${model.url}/fail/v1`, maxRetries: 0 }), "gpt-fake"),
    });
    const untraced = await new Runner().run(failing, "hi").catch((e: unknown) => e);
    const { client, server } = await clientAndServer();
    setTraceProcessors([createOpenAIAgentsProcessor(client)]);
    const error = await new Runner().run(failing, "hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf((untraced as object).constructor as new () => unknown);
    expect((error as Error).message).toBe((untraced as Error).message);
    expect((error as Error).message).toMatch(/scripted failure/);
    await client.flushTraces();
    const response = spanNamed(recordedSpans(server), "response");
    expect(response.data.error).toBeTruthy();
  });

  it("sends its spans with content even when the sim plan turns their nodes off", async () => {
    const plan = { nodes: ["response", TOOL_NAME, "Weather agent"].map((name) => ({ traceFunctionKey: "weather workflow", name, captureContent: false })) };
    const { client, server } = await clientAndServer(router({ "GET /api/sdk/sim-plan": () => ({ body: plan }) }), { disableSimPlan: false });
    setTraceProcessors([createOpenAIAgentsProcessor(client)]);
    await new Runner({ workflowName: "weather workflow" }).run(weatherAgent(), "Weather in Paris?");
    await client.flushTraces();
    const spans = recordedSpans(server);
    expect(server.requests.some((r) => r.path === "/api/sdk/sim-plan")).toBe(true);
    expect(spanNamed(spans, TOOL_NAME).data).toMatchObject({ input: { city: "Paris" }, output: "sunny in Paris" });
    expect(spans.every((s) => s.data.content_off_by_simulation_plan === undefined)).toBe(true);
  });
});
