import { describe, expect, it } from "vitest";
import { Reprise } from "../src/client.js";
import { decodeValue } from "../src/encoding/value-codec.js";
import { FunctionNotFoundError, RepriseApiError } from "../src/errors.js";
import { allCarriers, captureLogger } from "./helpers/fake-server.js";
import { clientAndServer, router, track } from "./helpers/client.js";

type Payload = Record<string, any>;
const spansOf = (carriers: Array<{ operation: string; payload: Payload }>) =>
  carriers.filter((c) => c.operation === "external_span").map((c) => c.payload);
const completionsOf = (carriers: Array<{ operation: string; payload: Payload }>) =>
  carriers.filter((c) => c.operation === "external_trace").map((c) => c.payload);

describe("withTrace / withSpan", () => {
  it("records a root and a child span and one completion with expectedSpanCount", async () => {
    const { client, server } = await clientAndServer();
    const callModel = client.withSpan("callModel", { type: "llm" }, async (prompt: string) => {
      client.getCurrentSpan().addContext({ model: "m-1", inputTokens: 3, outputTokens: 1 });
      return `answer to ${prompt}`;
    });
    const answer = client.withTrace("answer-question", async (question: string) => callModel(question));
    expect(await answer("2+2?")).toBe("answer to 2+2?");
    expect(await client.flushTraces()).toBe(true);
    const carriers = allCarriers(server);
    const spans = spansOf(carriers);
    const [completion] = completionsOf(carriers);
    expect(spans).toHaveLength(2);
    const root = spans.find((s) => s.rawSpan.parent_id === undefined)!;
    const child = spans.find((s) => s.rawSpan.parent_id !== undefined)!;
    expect(root.rawSpan.span_data).toMatchObject({ name: "answer-question", type: "function", input: ["2+2?"], output: "answer to 2+2?" });
    expect(child.rawSpan.parent_id).toBe(root.rawSpan.id);
    expect(child.rawSpan.span_data).toMatchObject({
      name: "callModel",
      type: "llm",
      contexts: [{ model: "m-1", inputTokens: 3, outputTokens: 1 }],
    });
    expect(child.rawSpan.span_origin).toEqual({ name: "reprise.sdk.typescript", version: "0.1.0", instrumentation: { name: "span" } });
    expect(root.rawSpan.span_origin.instrumentation).toEqual({ name: "trace" });
    for (const span of spans) {
      expect(span).toMatchObject({ type: "sdk-function", source: "typescript-sdk-function", traceFunctionKey: "answer-question", sdkVersion: "0.1.0" });
      expect(span.sourceTraceId).toBe(root.rawSpan.trace_id);
    }
    expect(completion).toMatchObject({
      id: root.rawSpan.trace_id,
      type: "sdk-function",
      traceFunctionKey: "answer-question",
      completed: true,
      expectedSpanCount: 2,
      ingestion_type: "captured",
      externalTrace: { id: root.rawSpan.trace_id, workflow_name: "answer-question", ingestion_type: "captured" },
    });
    expect(root.rawSpan.trace_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("holds the completion until children still running after the root returned have finished", async () => {
    const { client, server } = await clientAndServer();
    let finishChild!: () => void;
    const childDone = new Promise<void>((resolve) => (finishChild = resolve));
    const background = client.withSpan("background", async () => {
      await childDone;
      return "late";
    });
    let childPromise: Promise<string> | undefined;
    const root = client.withTrace("fire-and-forget", () => {
      childPromise = background();
      return "root done";
    });
    expect(root()).toBe("root done");
    expect(await client.flushTraces()).toBe(true);
    expect(completionsOf(allCarriers(server))).toHaveLength(0);
    finishChild();
    await childPromise;
    expect(await client.flushTraces()).toBe(true);
    const [completion] = completionsOf(allCarriers(server));
    expect(completion?.expectedSpanCount).toBe(2);
  });

  it("passes application errors through and records them", async () => {
    const { client, server } = await clientAndServer();
    const fails = client.withTrace("fails", () => {
      throw new Error("boom");
    });
    expect(() => fails()).toThrow("boom");
    const rejects = client.withTrace("rejects", async () => {
      throw new TypeError("nope");
    });
    await expect(rejects()).rejects.toThrow(TypeError);
    await client.flushTraces();
    const errors = spansOf(allCarriers(server)).map((s) => s.rawSpan.span_data.error);
    expect(errors.sort()).toEqual(["boom", "nope"]);
    const body = server.requests[0]!.json() as any;
    const statuses = body.resourceSpans[0].scopeSpans[0].spans.map((s: any) => s.status.code);
    expect(statuses).toContain(2);
  });

  it("records async generators with their context, yielded values and return value", async () => {
    const { client, server } = await clientAndServer();
    const seen: Array<string | undefined> = [];
    const stream = client.withSpan("stream", async function* (n: number) {
      for (let i = 0; i < n; i += 1) {
        seen.push(client.getCurrentSpan().id);
        yield i;
      }
      return "end";
    });
    const run = client.withTrace("streaming", async () => {
      const out: number[] = [];
      for await (const value of stream(3)) out.push(value);
      return out;
    });
    expect(await run()).toEqual([0, 1, 2]);
    await client.flushTraces();
    const span = spansOf(allCarriers(server)).find((s) => s.rawSpan.span_data.name === "stream")!;
    expect(span.rawSpan.span_data.output).toEqual({ yielded: [0, 1, 2], return: "end" });
    expect(new Set(seen)).toEqual(new Set([span.rawSpan.id]));
  });

  it("records sync functions and sync generators", async () => {
    const { client, server } = await clientAndServer();
    const gen = client.withSpan("gen", function* () {
      yield "a";
      yield "b";
    });
    const add = client.withTrace("add", (a: number, b: number) => [...gen()].join("") + (a + b));
    expect(add(1, 2)).toBe("ab3");
    await client.flushTraces();
    const spans = spansOf(allCarriers(server));
    expect(spans.find((s) => s.rawSpan.span_data.name === "gen")?.rawSpan.span_data.output).toMatchObject({ yielded: ["a", "b"] });
    expect(spans.find((s) => s.rawSpan.span_data.name === "add")?.rawSpan.span_data.input).toEqual([1, 2]);
  });

  it("round-trips Dates, Maps and BigInts through the meta encoding", async () => {
    const { client, server } = await clientAndServer();
    const input = { when: new Date("2026-03-04T05:06:07.000Z"), tags: new Map([["a", 1n]]) };
    const fn = client.withTrace("typed", (value: typeof input) => ({ seen: value.when, big: 2n ** 70n }));
    fn(input);
    await client.flushTraces();
    const data = spansOf(allCarriers(server))[0]!.rawSpan.span_data;
    expect(decodeValue(data.input, data.input_meta)).toEqual([input]);
    expect(decodeValue(data.output, data.output_meta)).toEqual({ seen: input.when, big: 2n ** 70n });
  });

  it("stubs values that cannot round-trip and adds an errors entry", async () => {
    const { client, server } = await clientAndServer();
    client.withTrace("callbacks", (_cb: () => void) => "ok")(() => undefined);
    await client.flushTraces();
    const span = spansOf(allCarriers(server))[0]!;
    expect(span.rawSpan.span_data.input).toEqual(["<unserializable: function>"]);
    expect(span.errors).toEqual([{ source: "sdk", step: "serialization_degraded", error: expect.stringContaining("function") }]);
  });

  it("runs withSpan outside any trace without recording", async () => {
    const { client, server } = await clientAndServer();
    expect(client.withSpan("alone", () => 42)()).toBe(42);
    await client.flushTraces();
    expect(server.requests).toHaveLength(0);
  });

  it("keeps `this` and works as standard and legacy decorators", async () => {
    const { client, server } = await clientAndServer();
    class Agent {
      factor = 10;
      @client.trace("agent-run")
      run(x: number) {
        return this.scale(x);
      }
      @client.span("scale", { type: "function" })
      scale(x: number) {
        return x * this.factor;
      }
    }
    expect(new Agent().run(2)).toBe(20);
    const descriptor: PropertyDescriptor = { value: function legacy(this: { k: number }) { return this.k; } };
    client.trace("legacy")({}, "legacy", descriptor);
    expect(descriptor.value.call({ k: 7 })).toBe(7);
    await client.flushTraces();
    const names = spansOf(allCarriers(server)).map((s) => s.rawSpan.span_data.name).sort();
    expect(names).toEqual(["agent-run", "legacy", "scale"]);
  });
});

describe("current trace", () => {
  it("carries name, metadata, contexts and session id on the completion", async () => {
    const { client, server } = await clientAndServer();
    let id: string | undefined;
    client.withTrace("meta", () => {
      const trace = client.getCurrentTrace();
      id = trace.id;
      trace.setName("A title").mergeMetadata({ tenant: "acme", when: new Date(0) }).addContext({ region: "eu" }).setSessionId("s-1");
    })();
    await client.flushTraces();
    const [completion] = completionsOf(allCarriers(server));
    expect(completion).toMatchObject({
      id,
      name: "A title",
      sessionId: "s-1",
      externalTrace: { name: "A title", metadata: { tenant: "acme", when: "1970-01-01T00:00:00.000Z" }, contexts: [{ region: "eu" }] },
    });
  });

  it("records a prompt object as its JSON text, a string as it is", async () => {
    const { client, server } = await clientAndServer();
    const messages = [{ role: "system", content: "Be brief." }, { role: "user", content: "2+2?" }];
    const call = client.withSpan("callModel", { type: "llm" }, async () => { client.getCurrentSpan().setPrompt(messages); });
    const plain = client.withSpan("plain", async () => { client.getCurrentSpan().setPrompt("Say hi"); });
    await client.withTrace("prompted", async () => { await call(); await plain(); })();
    await client.flushTraces();
    const spans = spansOf(allCarriers(server));
    expect(spans.find((s) => s.rawSpan.span_data.name === "callModel")!.rawSpan.span_data.prompt).toBe(JSON.stringify(messages));
    expect(spans.find((s) => s.rawSpan.span_data.name === "plain")!.rawSpan.span_data.prompt).toBe("Say hi");
  });

  it("drop() suppresses later spans and marks the completion dropped", async () => {
    const { client, server } = await clientAndServer();
    const before = client.withSpan("before", () => 1);
    const after = client.withSpan("after", () => 2);
    client.withTrace("dropped", () => {
      before();
      client.getCurrentTrace().drop();
      after();
    })();
    await client.flushTraces();
    const carriers = allCarriers(server);
    expect(spansOf(carriers).map((s) => s.rawSpan.span_data.name)).toEqual(["before"]);
    const [completion] = completionsOf(carriers);
    expect(completion?.dropped).toBe(true);
    expect(completion?.expectedSpanCount).toBeUndefined();
  });

  it("is a harmless no-op outside a trace", () => {
    const client = track(new Reprise({ apiKey: "rp_x", serviceUrl: "http://127.0.0.1:9", logger: captureLogger().logger }));
    const trace = client.getCurrentTrace();
    expect(trace.isActive).toBe(false);
    expect(() => trace.setName("x").mergeMetadata({}).addContext({}).setSessionId("s").drop()).not.toThrow();
  });
});

describe("client behaviour", () => {
  it("disables tracing with one warning when there is no API key", async () => {
    const { lines, logger } = captureLogger();
    const previous = process.env.REPRISE_API_KEY;
    delete process.env.REPRISE_API_KEY;
    try {
      const a = track(new Reprise({ serviceUrl: "http://127.0.0.1:9", logger }));
      track(new Reprise({ serviceUrl: "http://127.0.0.1:9", logger }));
      expect(a.enabled).toBe(false);
      expect(a.withTrace("k", (x: number) => x + 1)(1)).toBe(2);
      expect(await a.flushTraces()).toBe(true);
      expect(lines.filter((l) => l.includes("No API key"))).toHaveLength(1);
    } finally {
      if (previous !== undefined) process.env.REPRISE_API_KEY = previous;
    }
  });

  it("never throws into the application after close()", async () => {
    const { client, server } = await clientAndServer();
    await client.close();
    expect(client.withTrace("after-close", () => "still works")()).toBe("still works");
    expect(server.requests).toHaveLength(0);
  });

  it("updates a detached trace with PATCH and surfaces rejections", async () => {
    const { client, server } = await clientAndServer(
      router({ "PATCH /api/sdk/traces/missing": () => ({ status: 404, body: { error: "Trace not found", code: "not_found" } }) }),
    );
    await client.detachedTrace("t-1").setName("New name");
    await client.detachedTrace("t-1").mergeMetadata({ a: 1 });
    await client.detachedTrace("t-1").addContext({ b: 2 });
    await client.detachedTrace("t-1").setSessionId("s");
    expect(server.requests.map((r) => [r.method, r.path, r.json()])).toEqual([
      ["PATCH", "/api/sdk/traces/t-1", { setName: "New name" }],
      ["PATCH", "/api/sdk/traces/t-1", { mergeMetadata: { a: 1 } }],
      ["PATCH", "/api/sdk/traces/t-1", { appendContexts: [{ b: 2 }] }],
      ["PATCH", "/api/sdk/traces/t-1", { setSessionId: "s" }],
    ]);
    const error = await client.detachedTrace("missing").setName("x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RepriseApiError);
    expect((error as RepriseApiError).status).toBe(404);
    expect((error as RepriseApiError).code).toBe("not_found");
  });

  it("seedTrace writes a seeded trace", async () => {
    const { client, server } = await clientAndServer();
    const { traceId, delivered } = await client.seedTrace({
      traceFunctionKey: "answer-question",
      input: ["What is 2+2?"],
      output: "4",
      name: "seed case",
    });
    expect(delivered).toBe(true);
    const carriers = allCarriers(server);
    const [completion] = completionsOf(carriers);
    expect(completion).toMatchObject({ id: traceId, ingestion_type: "seeded", name: "seed case", expectedSpanCount: 1 });
    expect(completion?.externalTrace.ingestion_type).toBe("seeded");
    expect(spansOf(carriers)[0]?.rawSpan.span_data).toMatchObject({ input: ["What is 2+2?"], output: "4" });
  });

  it("lookupFunction raises FunctionNotFoundError on {id: null}", async () => {
    const { client, server } = await clientAndServer(
      router({
        "POST /api/sdk/functions/lookup": (r) =>
          (r.json() as { name: string }).name === "known" ? { body: { id: "f-1", name: "known", prompt: "p" } } : { body: { id: null } },
      }),
    );
    await expect(client.lookupFunction("known")).resolves.toMatchObject({ id: "f-1", prompt: "p" });
    const error = await client.lookupFunction("unknown").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FunctionNotFoundError);
    expect((error as FunctionNotFoundError).url).toBe(`${server.url}/functions`);
  });
});
