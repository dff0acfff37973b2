// A LangGraph graph run for real (ChatOpenAI against a local OpenAI-compatible server, a ToolNode), recorded by
// the callback handler.
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { RunnableLambda } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { RepriseLangGraphHandler } from "../../src/integrations/langgraph/index.js";
import { clientAndServer, router } from "../helpers/client.js";
import { FINAL_TEXT, type FakeModelServer, startFakeOpenAI, TOOL_NAME, USAGE } from "./fake-models.js";
import { completions, recordedSpans, shapes, spanNamed } from "./recorded.js";

describe("LangGraph integration", () => {
  let model: FakeModelServer;
  beforeAll(async () => {
    model = await startFakeOpenAI();
  });
  afterAll(() => model.close());

  /** agent (one model call) → tools (one tool call) → end. */
  function weatherGraph(baseURL = `${model.url}/v1`) {
    const getWeather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
      name: TOOL_NAME,
      description: "Weather of a city",
      schema: z.object({ city: z.string() }),
    });
    const llm = new ChatOpenAI({ model: "gpt-fake", apiKey: "sk-test", maxRetries: 0, configuration: { baseURL } }).bindTools([getWeather]);
    return new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state: typeof MessagesAnnotation.State) => ({ messages: [await llm.invoke(state.messages)] }))
      .addNode("tools", new ToolNode([getWeather]))
      .addEdge(START, "agent")
      .addEdge("agent", "tools")
      .addEdge("tools", END)
      .compile();
  }

  it("records the graph, its nodes, the model call and the tool call; hidden runs are never submitted", async () => {
    const { client, server } = await clientAndServer();
    const hiddenRuns: string[] = [];
    const watcher = BaseCallbackHandler.fromMethods({
      handleChainStart(_chain, _inputs, _runId, _parentRunId, tags, _metadata, _runType, name) {
        if (tags?.includes("langsmith:hidden")) hiddenRuns.push(String(name));
      },
    });
    const callbacks = [new RepriseLangGraphHandler(client), watcher];
    const result = await weatherGraph().invoke({ messages: [{ role: "user", content: "Weather in Paris?" }] }, { callbacks });
    expect(result.messages.at(-1)?.content).toBe("sunny in Paris");
    expect(await client.flushTraces()).toBe(true);

    const spans = recordedSpans(server);
    expect(shapes(spans)).toEqual([
      {
        name: "LangGraph",
        type: "agent",
        children: [
          { name: "agent", type: "custom", children: [{ name: "ChatOpenAI", type: "llm" }] },
          { name: "tools", type: "custom", children: [{ name: TOOL_NAME, type: "function" }] },
        ],
      },
    ]);
    for (const span of spans) {
      expect(span.instrumentation).toBe("langgraph");
      expect(span.source).toBe("typescript-sdk-langgraph");
    }
    const llm = spanNamed(spans, "ChatOpenAI");
    expect(llm.contexts).toContainEqual({ model: "gpt-fake", inputTokens: USAGE.input, outputTokens: USAGE.output, totalTokens: USAGE.input + USAGE.output });
    expect(llm.data.input).toEqual([{ role: "human", content: "Weather in Paris?" }]);
    expect(llm.data.output).toMatchObject({ role: "ai", tool_calls: [expect.objectContaining({ name: TOOL_NAME, args: { city: "Paris" } })] });
    expect(spanNamed(spans, TOOL_NAME).data).toMatchObject({ input: { city: "Paris" } });
    expect(spanNamed(spans, "agent").contexts).toContainEqual(expect.objectContaining({ langgraph_node: "agent", langgraph_step: 1 }));
    expect(hiddenRuns.length).toBeGreaterThan(0); // the scheduler's own runs were there, and none was submitted
    expect(spans.some((s) => hiddenRuns.includes(s.name))).toBe(false);
    expect(spans.every((s) => !s.data.errors)).toBe(true);
    const [completion] = completions(server);
    expect(completion).toMatchObject({ traceFunctionKey: "LangGraph", expectedSpanCount: spans.length });
  });

  /** The ReAct loop: agent → (toolsCondition) → tools → agent → (toolsCondition) → end. */
  function reactGraph() {
    const getWeather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
      name: TOOL_NAME,
      description: "Weather of a city",
      schema: z.object({ city: z.string() }),
    });
    const llm = new ChatOpenAI({ model: "gpt-fake", apiKey: "sk-test", maxRetries: 0, configuration: { baseURL: `${model.url}/v1` } }).bindTools([getWeather]);
    return new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state: typeof MessagesAnnotation.State) => ({ messages: [await llm.invoke(state.messages)] }))
      .addNode("tools", new ToolNode([getWeather]))
      .addEdge(START, "agent")
      .addConditionalEdges("agent", toolsCondition, ["tools", END])
      .addEdge("tools", "agent")
      .compile()
      .withConfig({ runName: "weather-graph" });
  }

  it("never submits the conditional edge's router (toolsCondition), and titles the trace with the graph's name", async () => {
    const { client, server } = await clientAndServer();
    const handler = new RepriseLangGraphHandler(client, { traceFunctionKey: "weather-bot" });
    const result = await reactGraph().invoke({ messages: [{ role: "user", content: "Weather in Paris?" }] }, { callbacks: [handler] });
    expect(result.messages.at(-1)?.content).toBe(FINAL_TEXT);
    expect(await client.flushTraces()).toBe(true);
    const spans = recordedSpans(server);
    expect(shapes(spans)).toEqual([
      {
        name: "weather-graph",
        type: "agent",
        children: [
          { name: "agent", type: "custom", children: [{ name: "ChatOpenAI", type: "llm" }] },
          { name: "tools", type: "custom", children: [{ name: TOOL_NAME, type: "function" }] },
          { name: "agent", type: "custom", children: [{ name: "ChatOpenAI", type: "llm" }] },
        ],
      },
    ]);
    // No span answers "tools" or "__end__": the branch decided, and only its effect (the next node) shows.
    expect(spans.some((s) => s.data.output === "tools" || s.data.output === END)).toBe(false);
    const [completion] = completions(server);
    expect(completion).toMatchObject({ traceFunctionKey: "weather-bot", name: "weather-graph", expectedSpanCount: spans.length });
  });

  it("still records a function a node runs that answers more than a route", async () => {
    const { client, server } = await clientAndServer();
    const lookup = RunnableLambda.from(async (city: string) => ({ city, forecast: "sunny" }));
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("lookup", async (_state: typeof MessagesAnnotation.State, config) => {
        const found = await lookup.invoke("Paris", config);
        return { messages: [{ role: "ai", content: found.forecast }] };
      })
      .addEdge(START, "lookup")
      .addEdge("lookup", END)
      .compile();
    await graph.invoke({ messages: [{ role: "user", content: "Paris?" }] }, { callbacks: [new RepriseLangGraphHandler(client)] });
    await client.flushTraces();
    const spans = recordedSpans(server);
    expect(shapes(spans)).toEqual([{ name: "LangGraph", type: "agent", children: [{ name: "lookup", type: "custom", children: [{ name: "RunnableLambda", type: "custom" }] }] }]);
    expect(spanNamed(spans, "RunnableLambda").data.output).toEqual({ city: "Paris", forecast: "sunny" });
  });

  it("nests under the active withSpan inside withTrace", async () => {
    const { client, server } = await clientAndServer();
    const handler = new RepriseLangGraphHandler(client);
    const graph = weatherGraph();
    const step = client.withSpan("plan", async (q: string) => graph.invoke({ messages: [{ role: "user", content: q }] }, { callbacks: [handler] }));
    const answer = client.withTrace("support", async (q: string) => (await step(q)).messages.length);
    expect(await answer("Weather in Paris?")).toBe(3);
    await client.flushTraces();
    const spans = recordedSpans(server);
    const plan = spanNamed(spans, "plan");
    expect(spanNamed(spans, "LangGraph").parentId).toBe(plan.id);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(completions(server)).toHaveLength(1);
    expect(completions(server)[0]).toMatchObject({ traceFunctionKey: "support", expectedSpanCount: spans.length });
  });

  it("never changes what the graph throws, and records the failing model call", async () => {
    const { client, server } = await clientAndServer();
    const untraced = await weatherGraph(`${model.url}/fail/v1`).invoke({ messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    const error = await weatherGraph(`${model.url}/fail/v1`)
      .invoke({ messages: [{ role: "user", content: "hi" }] }, { callbacks: [new RepriseLangGraphHandler(client)] })
      .catch((e: unknown) => e);
    expect((error as Error).constructor).toBe((untraced as Error).constructor);
    expect((error as Error).message).toBe((untraced as Error).message);
    await client.flushTraces();
    const spans = recordedSpans(server);
    expect(spanNamed(spans, "ChatOpenAI").data.error).toMatch(/scripted failure/);
    expect(spanNamed(spans, "LangGraph").data.error).toMatch(/scripted failure/);
    expect(completions(server)).toHaveLength(1);
  });

  it("sends its spans with content even when the sim plan turns their nodes off", async () => {
    const plan = { nodes: ["agent", "ChatOpenAI", TOOL_NAME].map((name) => ({ traceFunctionKey: "LangGraph", name, captureContent: false })) };
    const { client, server } = await clientAndServer(router({ "GET /api/sdk/sim-plan": () => ({ body: plan }) }), { disableSimPlan: false });
    await weatherGraph().invoke({ messages: [{ role: "user", content: "Weather in Paris?" }] }, { callbacks: [new RepriseLangGraphHandler(client)] });
    await client.flushTraces();
    const spans = recordedSpans(server);
    expect(spanNamed(spans, TOOL_NAME).data.output).toMatchObject({ content: "sunny in Paris" });
    expect(spans.every((s) => s.data.content_off_by_simulation_plan === undefined)).toBe(true);
  });
});
