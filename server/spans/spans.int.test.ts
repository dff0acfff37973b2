// Span reads: GET /traces/{traceId}/span, GET /spans/{id}, GET /externalSpans/{id} against a real database.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import { canonicalId, newId } from "../ids.ts";
import { ZExternalSpanResponse, ZSpanResponse } from "./spans.schemas.ts";
import { getExternalSpanRoute, getSpanRoute, getTraceSpanRoute } from "./spans.http.ts";

const traceSpan = (apiKey: string | null, traceId: string, query: string) =>
  call(getTraceSpanRoute, { apiKey, params: { traceId }, path: `/api/sdk/traces/${traceId}/span${query}` });
const spanById = (apiKey: string | null, id: string) => call(getSpanRoute, { apiKey, params: { id } });
const externalSpan = (apiKey: string | null, id: string, query = "") =>
  call(getExternalSpanRoute, { apiKey, params: { id }, path: `/api/sdk/externalSpans/${id}${query}` });

describe("span reads", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  let b: TestOrg;
  let traceId: string;
  const spanIds: Record<string, string> = {};
  const t0 = Date.parse("2026-11-20T12:00:00.000Z");
  const at = (ms: number) => new Date(t0 + ms);

  beforeAll(async () => {
    a = await createTestOrg(db(), "A");
    b = await createTestOrg(db(), "B");
    // A framework-integration trace: the SDK ids are not UUIDs, so the canonical ids are derived.
    const sourceTraceId = "trace_abc123";
    traceId = canonicalId(a.organizationId, sourceTraceId);
    await createTrace(db(), a.organizationId, { id: traceId });
    const rootSource = "span_root_1";
    spanIds.root = canonicalId(a.organizationId, rootSource);
    await createSpan(db(), a.organizationId, traceId, {
      id: spanIds.root, sourceSpanId: rootSource, sourceTraceId, name: "agent", type: "agent", startedAt: at(0), endedAt: at(900),
      input: ["hello"], output: { answer: 42 }, spanData: { input_meta: { values: ["Date"], v: 1 }, output_meta: null },
      contexts: [{ model: "m-1", inputTokens: 7, outputTokens: 3 }], prompt: "You are helpful", model: "m-1",
      inputTokens: 7, outputTokens: 3, totalTokens: 10, instrumentation: "span", spanOriginName: "reprise.sdk.typescript", spanOriginVersion: "1.0.0",
    });
    // Three "call" spans created out of start order: start order is c0 (10 ms), c1 (20 ms), c2 (30 ms).
    for (const [key, ms] of [["c2", 30], ["c0", 10], ["c1", 20]] as const) {
      const source = `toolu_${key}`;
      spanIds[key] = canonicalId(a.organizationId, source);
      await createSpan(db(), a.organizationId, traceId, {
        id: spanIds[key], sourceSpanId: source, sourceTraceId, parentSpanId: spanIds.root, sourceParentSpanId: rootSource,
        name: "call", startedAt: at(ms), output: key,
      });
    }
    spanIds.failed = newId();
    await createSpan(db(), a.organizationId, traceId, {
      id: spanIds.failed, parentSpanId: spanIds.root, name: "failing", startedAt: at(40), error: "boom",
      errors: [{ source: "sdk", step: "payload_budget", error: "trimmed oversized field(s) output" }],
    });
    spanIds.off = newId();
    await createSpan(db(), a.organizationId, traceId, { id: spanIds.off, parentSpanId: spanIds.root, name: "secret", startedAt: at(50), contentOff: true, input: undefined, spanData: { input: undefined, output: undefined } });
  });

  describe("GET /api/sdk/traces/{traceId}/span", () => {
    it("finds a span by canonical id with the Span shape and no source ids", async () => {
      const res = await traceSpan(a.apiKey, traceId, `?id=${spanIds.root}`);
      expect(res.status).toBe(200);
      const { span } = ZSpanResponse.parse(res.body);
      expect(span).toMatchObject({
        id: spanIds.root,
        traceId,
        parentSpanId: null,
        name: "agent",
        type: "agent",
        input: ["hello"],
        output: { answer: 42 },
        contexts: [{ model: "m-1", inputTokens: 7, outputTokens: 3 }],
        prompt: "You are helpful",
        metrics: { durationMs: 900, tokens: { input: 7, output: 3, cached: 0, total: 10 }, model: "m-1" },
        metadata: { instrumentation: "span", spanOrigin: { name: "reprise.sdk.typescript", version: "1.0.0" }, contentOffBySimulationPlan: false },
        error: null,
        errors: null,
        startedAt: at(0).toISOString(),
        endedAt: at(900).toISOString(),
      });
      const child = ZSpanResponse.parse((await traceSpan(a.apiKey, traceId, `?id=${spanIds.c1}`)).body).span;
      expect(child?.parentSpanId).toBe(spanIds.root);
      expect(JSON.stringify(child)).not.toMatch(/toolu_|span_root|trace_abc/);
    });

    it("resolves the instrumentation of spans stored before the origin fields existed from their source", async () => {
      const old = (await createTrace(db(), a.organizationId, {})).id;
      const root = await createSpan(db(), a.organizationId, old, { name: "root", startedAt: at(0), source: "typescript-sdk-function" });
      const child = await createSpan(db(), a.organizationId, old, { parentSpanId: root.id, name: "tool", startedAt: at(1), source: "typescript-sdk-function" });
      const graph = await createSpan(db(), a.organizationId, old, { parentSpanId: root.id, name: "node", startedAt: at(2), source: "typescript-sdk-langgraph" });
      const bare = await createSpan(db(), a.organizationId, old, { parentSpanId: root.id, name: "bare", startedAt: at(3) });
      const read = async (id: string, trace = old) => ZSpanResponse.parse((await traceSpan(a.apiKey, trace, `?id=${id}`)).body).span?.metadata;
      expect(await read(root.id)).toMatchObject({ instrumentation: "trace", spanOrigin: null });
      expect(await read(child.id)).toMatchObject({ instrumentation: "span", spanOrigin: null });
      expect(await read(graph.id)).toMatchObject({ instrumentation: "langgraph", spanOrigin: null });
      expect(await read(bare.id)).toMatchObject({ instrumentation: null });
      // A stored value always wins.
      expect((await read(spanIds.root, traceId))?.instrumentation).toBe("span");
    });

    it("selects by name: first, last (the default) and a 0-based index in start order", async () => {
      const pick = async (q: string) => ZSpanResponse.parse((await traceSpan(a.apiKey, traceId, q)).body).span?.id ?? null;
      expect(await pick("?name=call&occurrence=first")).toBe(spanIds.c0);
      expect(await pick("?name=call&occurrence=last")).toBe(spanIds.c2);
      expect(await pick("?name=call")).toBe(spanIds.c2);
      expect(await pick("?name=call&occurrence=0")).toBe(spanIds.c0);
      expect(await pick("?name=call&occurrence=1")).toBe(spanIds.c1);
      expect(await pick("?name=call&occurrence=2")).toBe(spanIds.c2);
    });

    it("answers {span: null} when the trace exists but nothing matches", async () => {
      for (const q of ["?name=call&occurrence=3", "?name=nope", `?id=${newId()}`]) {
        const res = await traceSpan(a.apiKey, traceId, q);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ span: null });
      }
      // A span of another trace is not a span of this one.
      const other = await createTrace(db(), a.organizationId);
      expect((await traceSpan(a.apiKey, other.id, `?id=${spanIds.root}`)).body).toEqual({ span: null });
    });

    it("reports the span's error and capture notes, and no content for a content-off span", async () => {
      const failed = ZSpanResponse.parse((await traceSpan(a.apiKey, traceId, "?name=failing")).body).span;
      expect(failed?.error).toBe("boom");
      expect(failed?.errors).toEqual([
        { source: "code", error: "boom" },
        { source: "sdk", step: "payload_budget", error: "trimmed oversized field(s) output" },
      ]);
      const off = ZSpanResponse.parse((await traceSpan(a.apiKey, traceId, "?name=secret")).body).span;
      expect(off).toMatchObject({ input: null, output: null, metadata: { contentOffBySimulationPlan: true } });
    });

    it.each([
      ["both selectors", () => `?id=${spanIds.root}&name=call`],
      ["no selector", () => ""],
      ["occurrence without name", () => "?occurrence=first"],
      ["occurrence with id", () => `?id=${spanIds.root}&occurrence=first`],
      ["an unknown occurrence", () => "?name=call&occurrence=middle"],
      ["a negative occurrence", () => "?name=call&occurrence=-1"],
      ["a fractional occurrence", () => "?name=call&occurrence=1.5"],
      ["an id that is not a UUID", () => "?id=toolu_c0"],
      ["an empty name", () => "?name="],
    ])("answers 400 for %s", async (_name, query) => {
      const res = await traceSpan(a.apiKey, traceId, query());
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_failed", issues: expect.any(Array) });
    });

    it("answers 404 for an unknown or foreign trace, 400 for a malformed trace id, 401 without key", async () => {
      expect((await traceSpan(a.apiKey, newId(), "?name=call")).status).toBe(404);
      const foreign = await traceSpan(b.apiKey, traceId, "?name=call");
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ code: "not_found" });
      expect((await traceSpan(b.apiKey, traceId, `?id=${spanIds.root}`)).status).toBe(404);
      expect((await traceSpan(a.apiKey, "trace_abc123", "?name=call")).status).toBe(400);
      expect((await traceSpan(null, traceId, "?name=call")).status).toBe(401);
    });
  });

  describe("GET /api/sdk/spans/{id}", () => {
    it("returns {span}", async () => {
      const res = await spanById(a.apiKey, spanIds.c1);
      expect(res.status).toBe(200);
      expect(ZSpanResponse.parse(res.body).span).toMatchObject({ id: spanIds.c1, traceId, name: "call", output: "c1" });
    });

    it("answers 404 for unknown and foreign ids, 400 for malformed ones, 401 without key", async () => {
      expect((await spanById(a.apiKey, newId())).status).toBe(404);
      expect((await spanById(b.apiKey, spanIds.c1)).status).toBe(404);
      expect((await spanById(a.apiKey, "toolu_c1")).status).toBe(400);
      expect((await spanById(null, spanIds.c1)).status).toBe(401);
    });
  });

  describe("GET /api/sdk/externalSpans/{id}", () => {
    it("returns the stored rawSpan as rawData, with canonical ids", async () => {
      const res = await externalSpan(a.apiKey, spanIds.c0);
      expect(res.status).toBe(200);
      const body = ZExternalSpanResponse.parse(res.body);
      expect(body).toMatchObject({
        id: spanIds.c0,
        externalTraceId: traceId,
        rawData: { id: spanIds.c0, trace_id: traceId, parent_id: spanIds.root, started_at: at(10).toISOString(), span_data: { name: "call", output: "c0" } },
      });
      expect(JSON.stringify(body)).not.toMatch(/toolu_|span_root|trace_abc/);
      const root = ZExternalSpanResponse.parse((await externalSpan(a.apiKey, spanIds.root)).body);
      expect(root.rawData).not.toHaveProperty("parent_id");
      expect(root.rawData.span_data).toMatchObject({ prompt: "You are helpful", contexts: expect.any(Array) });
    });

    it("keeps only the serialized input and output in the replay view", async () => {
      const res = await externalSpan(a.apiKey, spanIds.root, "?view=replay");
      expect(res.status).toBe(200);
      expect(ZExternalSpanResponse.parse(res.body)).toEqual({
        id: spanIds.root,
        externalTraceId: traceId,
        rawData: { span_data: { input: ["hello"], output: { answer: 42 }, input_meta: { values: ["Date"], v: 1 }, output_meta: null } },
      });
    });

    it("answers 400 for an unknown view or a malformed id, 404 for unknown and foreign ids, 401 without key", async () => {
      expect((await externalSpan(a.apiKey, spanIds.root, "?view=everything")).status).toBe(400);
      expect((await externalSpan(a.apiKey, "span_root_1")).status).toBe(400);
      expect((await externalSpan(a.apiKey, newId())).status).toBe(404);
      expect((await externalSpan(b.apiKey, spanIds.root)).status).toBe(404);
      expect((await externalSpan(null, spanIds.root)).status).toBe(401);
    });
  });
});
