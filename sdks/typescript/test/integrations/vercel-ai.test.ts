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

  it("does not end a streamed span before the stream is consumed", async () => {
    const { client, server } = await clientAndServer();
    const result = streamText({ model: languageModel(client), prompt: "Weather in Paris?" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.flushTraces();
    expect(recordedSpans(server)).toEqual([]);
    await result.consumeStream();
    await client.flushTraces();
    expect(recordedSpans(server)).toHaveLength(1);
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
