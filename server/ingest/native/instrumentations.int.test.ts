// Real instrumentations, offline (docs/otel.md): an app instrumented only with standard OpenTelemetry
// instrumentation runs as its own process against a local fake OpenAI-compatible model server and
// exports with the official OTLP exporters, configured by OTEL_EXPORTER_OTLP_ENDPOINT, to the real
// routes served over HTTP. The stored trees, types, tokens, model, messages and completion are checked.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { canonicalId } from "../../ids.ts";
import { sweepQuietTraces } from "../completion/quiet.service.ts";
import { startHandlerServer, type TestServer } from "../testing/http-server.ts";
import { postNativeLogs } from "./native-logs.http.ts";
import { postNativeTraces } from "./native.http.ts";
import { FAKE_ANSWER, FAKE_MODEL, startFakeModelServer, type FakeModelServer } from "./testing/fake-model-server.ts";

const APP = path.join(import.meta.dirname, "testing", "instrumented-app.cjs");

function runApp(library: string, format: string, server: TestServer, model: FakeModelServer, apiKey: string, service: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [APP, library, format, model.baseUrl], {
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH ?? "",
        OTEL_EXPORTER_OTLP_ENDPOINT: server.url,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${apiKey}`,
        OTEL_SERVICE_NAME: service,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`app exited ${code}: ${err}`))));
  });
}

type Row = { name: string; type: string; instrumentation: string | null; parentSpanId: string | null; endedAt: Date | null; inputTokens: number | null };
/** Name, type and instrumentation of each span, sorted: instrumentations' clocks differ by a millisecond or so. */
const shape = (spans: Array<Row | [string, string, string]>) =>
  spans.map((s) => (Array.isArray(s) ? s : [s.name, s.type, s.instrumentation])).map((t) => JSON.stringify(t)).sort();
/** The root, then the two model calls in the order they ended. */
function treeOrder<R extends Row>(spans: R[]): [R, R, R] {
  const root = spans.find((s) => s.parentSpanId === null)!;
  const calls = spans.filter((s) => s.type === "llm").sort((a, b) => a.endedAt!.getTime() - b.endedAt!.getTime());
  return [root, calls[0], calls[1]];
}

/** The trace's token totals, as the trace list and page sum them over its spans. */
const tokenTotals = (spans: Array<{ inputTokens: number | null; outputTokens: number | null }>) => ({
  input: spans.reduce((n, s) => n + (s.inputTokens ?? 0), 0),
  output: spans.reduce((n, s) => n + (s.outputTokens ?? 0), 0),
});

type SpanData = { input?: unknown; output?: unknown; metadata?: Record<string, unknown>; tools?: unknown; io_from?: unknown };

describe("real instrumentations through the native door", () => {
  const db = useTestDatabase();
  let server: TestServer;
  let model: FakeModelServer;
  beforeAll(async () => {
    server = await startHandlerServer({ "/v1/traces": postNativeTraces, "/v1/logs": postNativeLogs });
    model = await startFakeModelServer();
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  async function storedTrace(o: TestOrg) {
    const traces = await db().prisma.trace.findMany({ where: { organizationId: o.organizationId } });
    expect(traces).toHaveLength(1);
    const spans = await db().prisma.span.findMany({ where: { organizationId: o.organizationId, traceId: traces[0].id }, orderBy: { startedAt: "asc" } });
    const data = (s: (typeof spans)[number]) => (s.rawSpan as { span_data: SpanData }).span_data;
    return { trace: traces[0], spans, data };
  }

  async function completes(o: TestOrg, traceId: string) {
    await new Promise((r) => setTimeout(r, 1100));
    await sweepQuietTraces(db().sql, 1);
    const trace = await db().prisma.trace.findUniqueOrThrow({ where: { organizationId_id: { organizationId: o.organizationId, id: traceId } } });
    expect(trace.status).toBe("completed");
    return trace;
  }

  for (const format of ["json", "protobuf"] as const) {
    it(`OpenInference (@arizeai/openinference-instrumentation-openai) with the openai client, ${format}`, async () => {
      const o = await createTestOrg(db(), `openinference-${format}`);
      expect(await runApp("openinference", format, server, model, o.apiKey, "weather-service")).toContain(FAKE_ANSWER);
      const { trace, spans, data } = await storedTrace(o);
      expect(trace).toMatchObject({ name: "answer-question", traceFunctionKey: "weather-bot", completionMode: "quiet" });
      expect(shape(spans)).toEqual(shape([
        ["answer-question", "custom", "otel"],
        ["OpenAI Chat Completions", "llm", "openinference"],
        ["get_weather", "custom", "otel"],
        ["OpenAI Chat Completions", "llm", "openinference"],
      ]));
      const [root, first, second] = treeOrder(spans);
      for (const s of [first, second]) {
        expect(s.parentSpanId).toBe(root.id);
        expect(s).toMatchObject({ model: FAKE_MODEL, inputTokens: 20, outputTokens: 7, totalTokens: 27, cachedTokens: 3 });
      }
      expect(data(first).input).toEqual([{ role: "system", content: "You answer weather questions." }, { role: "user", content: "Weather in Oslo?" }]);
      expect(data(first).output).toEqual([{ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: { city: "Oslo" } } }] }]);
      expect(data(second).output).toEqual([{ role: "assistant", content: FAKE_ANSWER }]);
      expect((data(second).input as unknown[]).at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
      const done = await completes(o, trace.id);
      expect(done.id).toBe(canonicalId(o.organizationId, trace.sourceTraceId));
      const rootData = data((await storedTrace(o)).spans[0]);
      expect(rootData.input).toEqual(data(first).input);
      expect(rootData.output).toEqual(data(second).output);
    });

    it(`AI SDK 7 (ai + @ai-sdk/otel's OpenTelemetry integration), GenAI conventions, ${format}`, async () => {
      const o = await createTestOrg(db(), `vercel-${format}`);
      expect(await runApp("vercel-ai", format, server, model, o.apiKey, "weather-service")).toContain(FAKE_ANSWER);
      const { trace, spans, data } = await storedTrace(o);
      expect(trace).toMatchObject({ name: "answer-question", traceFunctionKey: "weather-bot" });
      expect(tokenTotals(spans)).toEqual({ input: 40, output: 14 });
      expect(shape(spans)).toEqual(shape([
        ["answer-question", "custom", "otel"],
        ["invoke_agent fake-model-1", "agent", "otel-genai"],
        ["step 1", "custom", "otel-genai"],
        ["chat fake-model-1", "llm", "otel-genai"],
        ["execute_tool get_weather", "function", "otel-genai"],
        ["step 2", "custom", "otel-genai"],
        ["chat fake-model-1", "llm", "otel-genai"],
      ]));
      const [, first, second] = treeOrder(spans);
      for (const s of [first, second]) expect(s).toMatchObject({ model: FAKE_MODEL, inputTokens: 20, outputTokens: 7, cachedTokens: 3 });
      // The agent span repeats its model calls' usage: only the model calls count tokens.
      const agent = spans.find((s) => s.type === "agent")!;
      expect(agent).toMatchObject({ inputTokens: null, outputTokens: null });
      expect(data(first).input).toEqual([{ role: "user", content: "Weather in Oslo?" }]);
      expect(data(first).output).toMatchObject([{ role: "assistant", tool_calls: [{ id: "call_1", function: { name: "get_weather", arguments: { city: "Oslo" } } }] }]);
      expect(data(second).output).toMatchObject([{ role: "assistant", content: FAKE_ANSWER }]);
      expect(data(spans.find((s) => s.type === "function")!)).toMatchObject({ input: { city: "Oslo" }, output: { city: "Oslo", celsius: 21 } });
      await completes(o, trace.id);
    });

    it(`AI SDK 7 with @ai-sdk/otel's LegacyOpenTelemetry (ai.* attributes), ${format}`, async () => {
      const o = await createTestOrg(db(), `vercel-legacy-${format}`);
      expect(await runApp("vercel-ai-legacy", format, server, model, o.apiKey, "weather-service")).toContain(FAKE_ANSWER);
      const { trace, spans, data } = await storedTrace(o);
      expect(trace).toMatchObject({ name: "answer-question", traceFunctionKey: "weather-bot", sessionId: "session-42" });
      expect(tokenTotals(spans)).toEqual({ input: 40, output: 14 });
      expect(spans.map((s) => [s.name, s.type, s.instrumentation])).toEqual([
        ["answer-question", "custom", "otel"],
        ["ai.generateText", "custom", "vercel-ai"],
        ["ai.generateText.doGenerate", "llm", "vercel-ai"],
        ["ai.toolCall", "function", "vercel-ai"],
        ["ai.generateText.doGenerate", "llm", "vercel-ai"],
      ]);
      const [root, outer, first, toolCall, second] = spans;
      expect(outer.parentSpanId).toBe(root.id);
      for (const s of [first, second]) expect(s.parentSpanId).toBe(outer.id);
      // AI SDK 7 runs a tool inside the model call that asked for it.
      expect(toolCall.parentSpanId).toBe(first.id);
      for (const s of [first, second]) expect(s).toMatchObject({ model: FAKE_MODEL, inputTokens: 20, outputTokens: 7, totalTokens: 27, cachedTokens: 3 });
      // The outer call repeats its model calls' usage: only the model calls count tokens.
      expect(outer).toMatchObject({ inputTokens: null, outputTokens: null, model: FAKE_MODEL });
      expect(data(outer).input).toEqual([{ role: "system", content: "You answer weather questions." }, { role: "user", content: "Weather in Oslo?" }]);
      expect(data(outer).output).toMatchObject([{ role: "assistant", content: FAKE_ANSWER, finish_reason: "stop" }]);
      expect(data(first).output).toMatchObject([{ role: "assistant", tool_calls: [{ id: "call_1", function: { name: "get_weather", arguments: { city: "Oslo" } } }] }]);
      expect(data(toolCall)).toMatchObject({ input: { city: "Oslo" }, output: { city: "Oslo", celsius: 21 } });
      await completes(o, trace.id);
    });

    it(`OpenLLMetry (@traceloop/node-server-sdk) in a Traceloop workflow: the GenAI attributes win, ${format}`, async () => {
      const o = await createTestOrg(db(), `openllmetry-${format}`);
      expect(await runApp("openllmetry", format, server, model, o.apiKey, "weather-service")).toContain(FAKE_ANSWER);
      const { trace, spans, data } = await storedTrace(o);
      expect(trace).toMatchObject({ name: "answer-question.workflow", traceFunctionKey: "weather-service" });
      // Before the GenAI attributes won, these chat spans were `custom` with no tokens, so the trace had none.
      expect(tokenTotals(spans)).toEqual({ input: 40, output: 14 });
      expect(shape(spans)).toEqual(shape([
        ["answer-question.workflow", "custom", "openllmetry"],
        ["chat fake-model-1", "llm", "openllmetry"],
        ["get_weather.tool", "function", "openllmetry"],
        ["chat fake-model-1", "llm", "openllmetry"],
      ]));
      const [root, first, second] = treeOrder(spans);
      for (const s of [first, second]) {
        expect(s.parentSpanId).toBe(root.id);
        expect(s).toMatchObject({ model: FAKE_MODEL, inputTokens: 20, outputTokens: 7, totalTokens: 27 });
      }
      expect(data(first).input).toEqual([{ role: "system", content: "You answer weather questions." }, { role: "user", content: "Weather in Oslo?" }]);
      expect(data(first).output).toMatchObject([{ role: "assistant", tool_calls: [{ id: "call_1", function: { name: "get_weather", arguments: { city: "Oslo" } } }] }]);
      expect(data(first).tools).toMatchObject([{ type: "function", function: { name: "get_weather" } }]);
      expect(data(second).output).toMatchObject([{ role: "assistant", content: FAKE_ANSWER }]);
      expect(data(spans.find((s) => s.type === "function")!).output).toEqual({ city: "Oslo", celsius: 21 });
      await completes(o, trace.id);
    });

    // The newest release, on the OpenTelemetry JS 3.x line it needs (test/otel-js-3), and the last release
    // for the 2.x line the SDK and the rest of these apps are on (docs/otel.md, "Versions tested").
    for (const [app, version, line] of [["otel-openai", "0.22.0", "3.x"], ["otel-openai-js2", "0.21.0", "2.x"]] as const) {
      it(`OpenTelemetry GenAI (@opentelemetry/instrumentation-openai ${version}, OpenTelemetry JS ${line}) with the openai client, messages as log events, ${format}`, async () => {
        const o = await createTestOrg(db(), `${app}-${format}`);
        expect(await runApp(app, format, server, model, o.apiKey, "weather-service")).toContain(FAKE_ANSWER);
        const { trace, spans, data } = await storedTrace(o);
        expect(trace).toMatchObject({ name: "answer-question", traceFunctionKey: "weather-bot" });
        expect(shape(spans)).toEqual(shape([
          ["answer-question", "custom", "otel"],
          ["chat fake-model-1", "llm", "otel-genai"],
          ["get_weather", "custom", "otel"],
          ["chat fake-model-1", "llm", "otel-genai"],
        ]));
        const [root, first, second] = treeOrder(spans);
        for (const s of [first, second]) {
          expect(s.parentSpanId).toBe(root.id);
          expect(s).toMatchObject({ model: FAKE_MODEL, inputTokens: 20, outputTokens: 7, totalTokens: 27 });
        }
        expect(data(first).input).toEqual([{ role: "system", content: "You answer weather questions." }, { role: "user", content: "Weather in Oslo?" }]);
        expect(data(first).output).toMatchObject([{ role: "assistant", tool_calls: [{ id: "call_1", function: { name: "get_weather" } }], finish_reason: "tool_calls" }]);
        expect(data(second).output).toEqual([{ role: "assistant", content: FAKE_ANSWER, finish_reason: "stop" }]);
        for (const s of [first, second]) expect(s).toMatchObject({ spanOriginName: "@opentelemetry/instrumentation-openai", spanOriginVersion: version });
        await completes(o, trace.id);
      });
    }
  }
});
