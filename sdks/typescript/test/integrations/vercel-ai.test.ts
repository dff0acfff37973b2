// The AI SDK (generateText, streamText, generateObject) run for real through its OpenAI provider against a local
// OpenAI-compatible server, recorded by the language-model middleware (and the tool wrapper).
import { createOpenAI } from "@ai-sdk/openai";
import { generateObject, generateText, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { repriseMiddleware, traceTools } from "../../src/integrations/vercel-ai/index.js";
import { clientAndServer, router } from "../helpers/client.js";
import type { Reprise } from "../../src/client.js";
import { FINAL_TEXT, type FakeModelServer, OBJECT, startFakeOpenAI, TOOL_NAME, USAGE } from "./fake-models.js";
import { completions, recordedSpans, shapes, spanNamed } from "./recorded.js";

describe("AI SDK middleware", () => {
  let model: FakeModelServer;
  beforeAll(async () => {
    model = await startFakeOpenAI();
  });
  afterAll(() => model.close());

  const languageModel = (client: Reprise, path = "/v1") =>
    wrapLanguageModel({ model: createOpenAI({ apiKey: "sk-test", baseURL: `${model.url}${path}` }).chat("gpt-fake"), middleware: repriseMiddleware(client) });
  const tools = (client: Reprise) =>
    traceTools(client, {
      [TOOL_NAME]: tool({ description: "Weather of a city", inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` }),
    });

  it("records generateText with a tool as one trace: the model call and the tool call", async () => {
    const { client, server } = await clientAndServer();
    const agent = client.withTrace("weather", async (prompt: string) => {
      const result = await generateText({ model: languageModel(client), tools: tools(client), stopWhen: stepCountIs(1), prompt });
      return result.toolResults.map((r) => r.output);
    });
    expect(await agent("Weather in Paris?")).toEqual(["sunny in Paris"]);
    expect(await client.flushTraces()).toBe(true);
    const spans = recordedSpans(server);
    expect(shapes(spans)).toEqual([{ name: "weather", type: "function", children: [{ name: "gpt-fake", type: "llm" }, { name: TOOL_NAME, type: "function" }] }]);
    const llm = spanNamed(spans, "gpt-fake");
    expect(llm).toMatchObject({ instrumentation: "vercel-ai", source: "typescript-sdk-vercel-ai" });
    expect(llm.contexts).toContainEqual(expect.objectContaining({ model: "gpt-fake", provider: "openai.chat", inputTokens: USAGE.input, outputTokens: USAGE.output, totalTokens: USAGE.input + USAGE.output }));
    expect(llm.data.input).toMatchObject({ prompt: [{ role: "user" }], tools: [TOOL_NAME] });
    expect(llm.data.output.content).toEqual([expect.objectContaining({ type: "tool-call", toolName: TOOL_NAME })]);
    const toolSpan = spanNamed(spans, TOOL_NAME);
    expect(toolSpan).toMatchObject({ instrumentation: "vercel-ai", data: { input: { city: "Paris" }, output: "sunny in Paris" } });
    expect(completions(server)).toEqual([expect.objectContaining({ traceFunctionKey: "weather", expectedSpanCount: 3 })]);
  });

  it("records streamText; the span ends when the stream ends, with the streamed text and tokens", async () => {
    const { client, server } = await clientAndServer();
    const result = streamText({ model: languageModel(client), prompt: "Weather in Paris?" });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe(FINAL_TEXT);
    await client.flushTraces();
    const [span] = recordedSpans(server);
    expect(span).toMatchObject({ name: "gpt-fake", type: "llm", parentId: undefined, instrumentation: "vercel-ai" });
    expect(span!.data.output).toEqual({ content: [{ type: "text", text: FINAL_TEXT }], finishReason: expect.anything() });
    expect(span!.contexts).toContainEqual(expect.objectContaining({ inputTokens: USAGE.input, outputTokens: USAGE.output }));
    expect(completions(server)).toEqual([expect.objectContaining({ traceFunctionKey: "gpt-fake", expectedSpanCount: 1 })]);
  });

  it("ends a streamed span only when the model's stream ends, or when the consumer cancels it", async () => {
    const { client, server } = await clientAndServer();
    const middleware = repriseMiddleware(client);
    const model = { provider: "test", modelId: "m-1" };
    const controlled = () => {
      let controller!: ReadableStreamDefaultController<unknown>;
      const stream = new ReadableStream<unknown>({ start: (c) => void (controller = c) });
      return { stream, controller };
    };
    const first = controlled();
    const result = await middleware.wrapStream({ doStream: async () => ({ stream: first.stream }), params: { prompt: [] }, model });
    const reader = (result.stream as ReadableStream<unknown>).getReader();
    first.controller.enqueue({ type: "text-delta", id: "t", delta: "Hel" });
    expect(await reader.read()).toEqual({ done: false, value: { type: "text-delta", id: "t", delta: "Hel" } });
    await client.flushTraces();
    expect(recordedSpans(server)).toEqual([]); // still streaming: nothing recorded yet
    first.controller.enqueue({ type: "finish", finishReason: "stop", usage: { inputTokens: { total: 3 }, outputTokens: { total: 2 } } });
    first.controller.close();
    while (!(await reader.read()).done) {
      // drain
    }
    await client.flushTraces();
    const [ended] = recordedSpans(server);
    expect(ended).toMatchObject({ name: "m-1", data: { output: { content: [{ type: "text", text: "Hel" }], finishReason: "stop" } } });
    expect(ended!.contexts).toContainEqual(expect.objectContaining({ inputTokens: 3, outputTokens: 2, totalTokens: 5 }));

    const second = controlled();
    const cancelled = await middleware.wrapStream({ doStream: async () => ({ stream: second.stream }), params: { prompt: [] }, model });
    await (cancelled.stream as ReadableStream<unknown>).cancel("consumer left");
    await client.flushTraces();
    expect(recordedSpans(server)[1]!.contexts).toContainEqual({ streamCancelled: true });
  });

  it("records generateObject", async () => {
    const { client, server } = await clientAndServer();
    const { object } = await generateObject({ model: languageModel(client), schema: z.object({ city: z.string(), forecast: z.string() }), prompt: "Weather in Paris?" });
    expect(object).toEqual(OBJECT);
    await client.flushTraces();
    const [span] = recordedSpans(server);
    expect(span!.data.input.responseFormat).toMatchObject({ type: "json" });
    expect(span!.data.output.content).toEqual([{ type: "text", text: JSON.stringify(OBJECT) }]);
  });

  it("never changes what a call throws, and records the error", async () => {
    const { client, server } = await clientAndServer();
    const plain = createOpenAI({ apiKey: "sk-test", baseURL: `${model.url}/fail/v1` }).chat("gpt-fake");
    const untraced = await generateText({ model: plain, prompt: "hi", maxRetries: 0 }).catch((e: unknown) => e);
    const error = await generateText({ model: languageModel(client, "/fail/v1"), prompt: "hi", maxRetries: 0 }).catch((e: unknown) => e);
    expect((error as Error).constructor).toBe((untraced as Error).constructor);
    expect((error as Error).message).toBe((untraced as Error).message);
    await client.flushTraces();
    expect(recordedSpans(server)[0]!.data.error).toMatch(/scripted failure/);
  });

  it("sends its spans with content even when the sim plan turns their nodes off", async () => {
    const plan = { nodes: ["gpt-fake", TOOL_NAME].map((name) => ({ traceFunctionKey: "weather", name, captureContent: false })) };
    const { client, server } = await clientAndServer(router({ "GET /api/sdk/sim-plan": () => ({ body: plan }) }), { disableSimPlan: false });
    const agent = client.withTrace("weather", async (prompt: string) => generateText({ model: languageModel(client), tools: tools(client), stopWhen: stepCountIs(1), prompt }));
    await agent("Weather in Paris?");
    await client.flushTraces();
    const spans = recordedSpans(server);
    expect(spanNamed(spans, TOOL_NAME).data.output).toBe("sunny in Paris");
    expect(spanNamed(spans, "gpt-fake").data.input).toBeDefined();
  });
});
