// The REST doors and the storage model: derived span columns, trace rows, idempotent
// upserts, completion per the state table, dropped traces, function executions, tenant isolation.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { sql } from "../db/sql.ts";
import { canonicalId } from "../ids.ts";
import { getExternalSpanRoute } from "../spans/spans.http.ts";
import { postExternalSpan, postExternalTrace, postFunctionTrace } from "./ingest.http.ts";
import { ZFunctionTraceResponse, ZIngestResponse } from "./ingest.schemas.ts";
import { postOtlpTraces } from "./otlp/otlp.http.ts";
import { carrierSpanJson, completionPayload, otlpJsonRequest, spanPayload } from "./testing/payloads.ts";

describe("ingestion over REST", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
  });

  const sendSpan = (body: unknown, apiKey = org.apiKey) => call(postExternalSpan, { apiKey, body });
  const sendTrace = (body: unknown, apiKey = org.apiKey) => call(postExternalTrace, { apiKey, body });
  const spansOf = (organizationId: string, traceId: string) =>
    db().prisma.span.findMany({ where: { organizationId, traceId }, orderBy: { startedAt: "asc" } });
  const traceOf = (organizationId: string, id: string) => db().prisma.trace.findUnique({ where: { organizationId_id: { organizationId, id } } });
  const eventsOf = (organizationId: string, traceId: string) => db().prisma.traceEvent.findMany({ where: { organizationId, traceId } });

  it("stores a span with its derived columns and creates the trace it belongs to", async () => {
    const traceId = randomUUID();
    const spanId = randomUUID();
    const payload = spanPayload({
      traceId,
      spanId,
      contexts: [{ model: "gpt-x", inputTokens: 12, outputTokens: 3, cacheReadTokens: 2 }],
      extra: { testRunId: randomUUID(), mocked: true, mockSource: "recorded", errors: [{ source: "sdk", step: "payload_budget", error: "trimmed" }] },
      spanData: { function_name: "callModel", content_off_by_simulation_plan: true },
    });
    const res = await sendSpan(payload);
    expect(res.status).toBe(200);
    expect(ZIngestResponse.parse(res.body).traceIds).toEqual({ [traceId]: traceId });
    const [span] = await spansOf(org.organizationId, traceId);
    expect(span).toMatchObject({
      id: spanId,
      traceId,
      parentSpanId: null,
      sourceSpanId: spanId,
      name: "callModel",
      type: "llm",
      functionName: "callModel",
      nodeKey: "answer-question",
      isFinal: true,
      durationMs: 1250,
      inputTokens: 12,
      outputTokens: 3,
      cachedTokens: 2,
      totalTokens: 15,
      model: "gpt-x",
      instrumentation: "span",
      spanOriginName: "reprise.sdk.typescript",
      spanOriginVersion: "0.1.0",
      testRunId: (payload as { testRunId: string }).testRunId,
      mocked: true,
      mockSource: "recorded",
      contentOffBySimulationPlan: true,
      errors: [{ source: "sdk", step: "payload_budget", error: "trimmed" }],
    });
    expect(span.startedAt?.toISOString()).toBe("2026-09-01T10:00:00.000Z");
    expect(span.rawSpan).toEqual(payload.rawSpan);
    const trace = await traceOf(org.organizationId, traceId);
    expect(trace).toMatchObject({ status: "pending", traceFunctionKey: "answer-question", sourceTraceId: traceId, completionSignalAt: null });
  });

  it("keeps a payload's keys in the order they were sent, nested objects included", async () => {
    const traceId = randomUUID();
    const spanId = randomUUID();
    // jsonb would return these shorter-key-first: {"b", "zeta", "alpha"} and {"zz", "aaa"}.
    const output = { zeta: 1, alpha: { zz: true, aaa: [3, 2, 1] }, b: "last" };
    const payload = spanPayload({ traceId, spanId, spanData: { output } });
    expect((await sendSpan(payload)).status).toBe(200);
    const res = await call(getExternalSpanRoute, { apiKey: org.apiKey, params: { id: spanId } });
    expect(res.status).toBe(200);
    const stored = res.body.rawData.span_data.output;
    expect(Object.keys(stored)).toEqual(["zeta", "alpha", "b"]);
    expect(Object.keys(stored.alpha)).toEqual(["zz", "aaa"]);
    expect(res.raw.toString("utf8")).toContain('{"zeta":1,"alpha":{"zz":true,"aaa":[3,2,1]},"b":"last"}');
  });

  it("stores rawSpan as the very text that was sent, whatever it holds, through both doors", async () => {
    // Spacing, escaped quotes and backslashes, brackets inside strings, \u escapes, a key written with an
    // escape, and rawSpan itself repeated (the last wins, as PostgreSQL's -> has it).
    const textOf = (traceId: string, spanId: string) => {
      const payload = JSON.stringify(spanPayload({ traceId, spanId }));
      const rawSpan = JSON.stringify((JSON.parse(payload) as { rawSpan: unknown }).rawSpan);
      const tricky = `{ "n\\u0061me" : "say \\"}{\\" \\\\", "list": [ 1, {"]": "["} ,"\\u00e9\\ud83d\\ude00" ], "z": null }`;
      const sent = `${rawSpan.slice(0, -1)}, "extra" :\n ${tricky} }`;
      return `{"rawSpan": {"id": "decoy"}, ${payload.slice(1, -1).replace(/"rawSpan":/, '"ignored":')}, "rawSpan" : ${sent}}`;
    };
    const expected = async (text: string) =>
      (await db().sql.query<{ raw: string }>(sql`SELECT (${text}::json -> 'rawSpan')::text AS raw`))[0].raw;
    const stored = async (spanId: string) =>
      (await db().sql.query<{ raw: string }>(sql`SELECT raw_span::text AS raw FROM spans WHERE organization_id = ${org.organizationId}::uuid AND id = ${spanId}::uuid`))[0]?.raw;

    const restTrace = randomUUID();
    const restSpan = randomUUID();
    const restText = textOf(restTrace, restSpan);
    expect((await sendSpan(restText)).status).toBe(200);
    expect(await stored(restSpan)).toBe(await expected(restText));
    expect(await stored(restSpan)).toContain('"extra" :\n { "n\\u0061me" : "say \\"}{\\" \\\\"');

    const otlpTrace = randomUUID();
    const otlpSpan = randomUUID();
    const otlpText = textOf(otlpTrace, otlpSpan);
    const res = await call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest([carrierSpanJson({ operation: "external_span", payload: otlpText })]) });
    expect(res.status).toBe(200);
    expect(await stored(otlpSpan)).toBe(await expected(otlpText));
  });

  it("maps non-UUID source ids to stable UUIDs, keeps them as opaque text, and names unnamed spans", async () => {
    const res = await sendSpan(spanPayload({ traceId: "trace_openai_1", spanId: "span_abc", parentId: "toolu_1", spanData: { name: "" } }));
    expect(res.status).toBe(200);
    const traceId = canonicalId(org.organizationId, "trace_openai_1");
    expect(res.body.traceIds).toEqual({ trace_openai_1: traceId });
    const [span] = await spansOf(org.organizationId, traceId);
    expect(span).toMatchObject({
      id: canonicalId(org.organizationId, "span_abc"),
      sourceSpanId: "span_abc",
      parentSpanId: canonicalId(org.organizationId, "toolu_1"),
      sourceParentSpanId: "toolu_1",
      name: "reprise.external_span",
    });
  });

  it("accepts explicit nulls and coerces unknown span types", async () => {
    const traceId = randomUUID();
    const payload = spanPayload({ traceId, spanData: { type: "generation" } });
    (payload.rawSpan as Record<string, unknown>).parent_id = null;
    (payload.rawSpan as Record<string, unknown>).input_source_span_id = null;
    payload.testRunId = null;
    expect((await sendSpan(payload)).status).toBe(200);
    const [span] = await spansOf(org.organizationId, traceId);
    expect(span).toMatchObject({ parentSpanId: null, type: "custom", testRunId: null });
  });

  it("upserts: a retry stores the span once, a final payload replaces a start snapshot, never the reverse", async () => {
    const traceId = randomUUID();
    const spanId = randomUUID();
    await sendSpan(spanPayload({ traceId, spanId, final: false, output: null }));
    expect((await spansOf(org.organizationId, traceId))[0]).toMatchObject({ isFinal: false, endedAt: null });
    await sendSpan(spanPayload({ traceId, spanId, output: "final" }));
    await sendSpan(spanPayload({ traceId, spanId, output: "final" }));
    await sendSpan(spanPayload({ traceId, spanId, final: false, output: "late start copy" }));
    const spans = await spansOf(org.organizationId, traceId);
    expect(spans).toHaveLength(1);
    expect(spans[0].isFinal).toBe(true);
    expect((spans[0].rawSpan as { span_data: { output: unknown } }).span_data.output).toBe("final");
  });

  it("completes a legacy trace (no expectedSpanCount) on the signal, with one event, and records trace fields", async () => {
    const traceId = randomUUID();
    const original = "orig-trace-1";
    const testRunId = randomUUID();
    await sendSpan(spanPayload({ traceId }));
    const res = await sendTrace(
      completionPayload({
        traceId,
        extra: { sessionId: "sess-42", experimentId: testRunId, name: "Top name", workflow_name: "legacy" },
        externalTrace: { metadata: { tenant: "acme" }, contexts: [{ region: "eu" }], input_source_trace_id: original, replay_attempt: 2, name: "inner", ingestion_type: "seeded" },
      }),
    );
    expect(res.status).toBe(200);
    const trace = await traceOf(org.organizationId, traceId);
    expect(trace).toMatchObject({
      status: "completed",
      name: "Top name",
      sessionId: "sess-42",
      metadata: { tenant: "acme" },
      contexts: [{ region: "eu" }],
      ingestionType: "seeded",
      testRunId,
      inputSourceTraceId: original,
      originalTraceId: canonicalId(org.organizationId, original),
      replayAttempt: 2,
      expectedSpanCount: null,
    });
    expect(trace?.completedAt).toBeInstanceOf(Date);
    expect(trace?.completionSignalAt).toBeInstanceOf(Date);
    expect(trace?.startedAt?.toISOString()).toBe("2026-09-01T10:00:00.000Z");
    expect(await eventsOf(org.organizationId, traceId)).toHaveLength(1);
    // A retried completion changes nothing and emits no second event.
    await sendTrace(completionPayload({ traceId }));
    expect(await eventsOf(org.organizationId, traceId)).toHaveLength(1);
  });

  it("reads rawTrace as externalTrace, workflow_name as the name, and resolves unknown ingestion types to captured", async () => {
    const traceId = randomUUID();
    const body = completionPayload({ traceId, externalTrace: { workflow_name: "wf" }, extra: { ingestion_type: "imported" } });
    body.rawTrace = body.externalTrace;
    delete body.externalTrace;
    expect((await sendTrace(body)).status).toBe(200);
    expect(await traceOf(org.organizationId, traceId)).toMatchObject({ name: "wf", ingestionType: "captured", status: "completed" });
  });

  it("waits for expectedSpanCount distinct final spans; completion before spans completes when the last lands", async () => {
    const traceId = randomUUID();
    const root = randomUUID();
    const child = randomUUID();
    await sendTrace(completionPayload({ traceId, expectedSpanCount: 2 }));
    expect(await traceOf(org.organizationId, traceId)).toMatchObject({ status: "pending", expectedSpanCount: 2 });
    // A start snapshot and retries do not count.
    await sendSpan(spanPayload({ traceId, spanId: child, parentId: root, final: false }));
    await sendSpan(spanPayload({ traceId, spanId: child, parentId: root }));
    await sendSpan(spanPayload({ traceId, spanId: child, parentId: root }));
    expect((await traceOf(org.organizationId, traceId))?.status).toBe("pending");
    expect(await eventsOf(org.organizationId, traceId)).toHaveLength(0);
    await sendSpan(spanPayload({ traceId, spanId: root }));
    expect((await traceOf(org.organizationId, traceId))?.status).toBe("completed");
    expect(await eventsOf(org.organizationId, traceId)).toHaveLength(1);
  });

  it("marks the trace failed when the root span recorded an error", async () => {
    const traceId = randomUUID();
    await sendSpan(spanPayload({ traceId, error: "boom" }));
    await sendTrace(completionPayload({ traceId, expectedSpanCount: 1 }));
    expect((await traceOf(org.organizationId, traceId))?.status).toBe("failed");
    expect(await eventsOf(org.organizationId, traceId)).toHaveLength(1);
    // A child's error alone does not fail its trace, with the spans and the completion in one request.
    const other = randomUUID();
    const root = randomUUID();
    const otlp = await call(postOtlpTraces, {
      apiKey: org.apiKey,
      body: otlpJsonRequest([
        carrierSpanJson({ operation: "external_span", payload: spanPayload({ traceId: other, spanId: root }) }),
        carrierSpanJson({ operation: "external_span", payload: spanPayload({ traceId: other, spanId: randomUUID(), parentId: root, error: "tool failed" }) }),
        carrierSpanJson({ operation: "external_trace", payload: completionPayload({ traceId: other, expectedSpanCount: 2 }) }),
      ]),
    });
    expect(otlp.status).toBe(200);
    expect((await traceOf(org.organizationId, other))?.status).toBe("completed");
  });

  it("reads the root's error from the spans written by the completing request itself", async () => {
    // The root with its error and the completion in one request: the completion check, in the same statement as
    // the spans on PostgreSQL and PGlite, must see the root it has just written.
    const failing = randomUUID();
    const inOne = await call(postOtlpTraces, {
      apiKey: org.apiKey,
      body: otlpJsonRequest([
        carrierSpanJson({ operation: "external_span", payload: spanPayload({ traceId: failing, error: "boom" }) }),
        carrierSpanJson({ operation: "external_trace", payload: completionPayload({ traceId: failing, expectedSpanCount: 1 }) }),
      ]),
    });
    expect(inOne.status).toBe(200);
    expect((await traceOf(org.organizationId, failing))?.status).toBe("failed");
    // A start snapshot of the root that recorded an error, replaced by its final copy without one in the completing
    // request: the stored snapshot's error no longer counts.
    const recovered = randomUUID();
    const root = randomUUID();
    await sendSpan(spanPayload({ traceId: recovered, spanId: root, final: false, error: "not yet" }));
    const replaced = await call(postOtlpTraces, {
      apiKey: org.apiKey,
      body: otlpJsonRequest([
        carrierSpanJson({ operation: "external_span", payload: spanPayload({ traceId: recovered, spanId: root }) }),
        carrierSpanJson({ operation: "external_trace", payload: completionPayload({ traceId: recovered, expectedSpanCount: 1 }) }),
      ]),
    });
    expect(replaced.status).toBe(200);
    expect((await traceOf(org.organizationId, recovered))?.status).toBe("completed");
    expect(await eventsOf(org.organizationId, recovered)).toHaveLength(1);
  });

  it("completed:false only creates or updates the trace", async () => {
    const traceId = randomUUID();
    await sendTrace(completionPayload({ traceId, completed: false, externalTrace: { name: "early" } }));
    const trace = await traceOf(org.organizationId, traceId);
    expect(trace).toMatchObject({ status: "pending", name: "early", completionSignalAt: null });
    await sendSpan(spanPayload({ traceId }));
    expect((await traceOf(org.organizationId, traceId))?.status).toBe("pending");
  });

  it("dropped scrubs the trace's spans, marks it dropped, discards later spans and emits no event", async () => {
    const traceId = randomUUID();
    await sendSpan(spanPayload({ traceId }));
    await sendTrace(completionPayload({ traceId, dropped: true, expectedSpanCount: 1 }));
    await sendSpan(spanPayload({ traceId }));
    expect(await spansOf(org.organizationId, traceId)).toHaveLength(0);
    const trace = await traceOf(org.organizationId, traceId);
    // The span it had counted as final is gone, and so is its count.
    expect(trace).toMatchObject({ dropped: true, status: "pending", finalSpanCount: 0 });
    expect(trace?.droppedAt).toBeInstanceOf(Date);
    expect(await eventsOf(org.organizationId, traceId)).toHaveLength(0);
  });

  it("keeps organizations apart: B sending A's source ids gets its own trace and A's is untouched", async () => {
    const traceId = randomUUID();
    const spanId = randomUUID();
    await sendSpan(spanPayload({ traceId, spanId, output: "from A" }));
    await sendSpan(spanPayload({ traceId, spanId, output: "from B" }), other.apiKey);
    await sendTrace(completionPayload({ traceId, externalTrace: { name: "B's" } }), other.apiKey);
    const [a] = await spansOf(org.organizationId, traceId);
    const [b] = await spansOf(other.organizationId, traceId);
    expect((a.rawSpan as { span_data: { output: string } }).span_data.output).toBe("from A");
    expect((b.rawSpan as { span_data: { output: string } }).span_data.output).toBe("from B");
    expect(await traceOf(org.organizationId, traceId)).toMatchObject({ status: "pending", name: null });
    expect(await traceOf(other.organizationId, traceId)).toMatchObject({ status: "completed", name: "B's" });
    expect(await eventsOf(org.organizationId, traceId)).toHaveLength(0);
    // Non-UUID source ids map to different canonical ids per organization.
    expect(canonicalId(org.organizationId, "t-1")).not.toBe(canonicalId(other.organizationId, "t-1"));
  });

  it("answers 400 with the error body for bad JSON and schema failures, and writes nothing", async () => {
    const before = await db().prisma.span.count();
    const bad = await sendSpan("{nope");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_json");
    const missing = await sendSpan({ type: "sdk-function", sourceTraceId: "x" });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "validation_failed", issues: expect.arrayContaining([expect.objectContaining({ path: "rawSpan" })]) });
    const wrongType = await sendTrace({ externalTrace: { id: "t" }, expectedSpanCount: "three" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.issues[0].path).toBe("expectedSpanCount");
    const noId = await sendTrace({ completed: true });
    expect(noId.status).toBe(400);
    expect(await db().prisma.span.count()).toBe(before);
  });

  it("requires an API key", async () => {
    expect((await call(postExternalSpan, { apiKey: null, body: spanPayload({ traceId: randomUUID() }) })).status).toBe(401);
  });

  describe("function executions", () => {
    let functionId: string;
    beforeAll(async () => {
      functionId = randomUUID();
      await db().prisma.promptFunction.create({ data: { id: functionId, organizationId: org.organizationId, name: `fn-${functionId}` } });
    });
    const body = { result: { answer: 4 }, source: "typescript-sdk", inputs: { q: "2+2" }, rawCollector: { __type__: "Collector" }, sdkVersion: "0.1.0" };

    it("records an execution of a known function", async () => {
      const res = await call(postFunctionTrace, { apiKey: org.apiKey, body, params: { functionId } });
      expect(res.status).toBe(200);
      const { id } = ZFunctionTraceResponse.parse(res.body);
      const row = await db().prisma.functionExecution.findFirst({ where: { id } });
      expect(row).toMatchObject({ organizationId: org.organizationId, functionId, result: '{"answer":4}', inputs: { q: "2+2" }, source: "typescript-sdk" });
    });

    it("answers 404 for an unknown, foreign or malformed function id", async () => {
      for (const [apiKey, id] of [[org.apiKey, randomUUID()], [other.apiKey, functionId], [org.apiKey, "not-a-uuid"]]) {
        const res = await call(postFunctionTrace, { apiKey, body, params: { functionId: id } });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe("not_found");
      }
      expect(await db().prisma.functionExecution.count({ where: { organizationId: other.organizationId } })).toBe(0);
    });
  });
});
