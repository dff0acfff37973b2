// The native OpenTelemetry door (docs/otel.md) over real HTTP: encodings, auth, limits, partialSuccess,
// idempotency, completion by quiet period (a 1-second quiet setting), amended traces re-graded once, and
// the carrier door left exactly as it was.
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { decodeExportResponse, decodeStatus } from "../../../proto/otlp.ts";
import { sql } from "../../db/sql.ts";
import { createGrader } from "../../graders/graders.service.ts";
import { ZSaveGraderBody } from "../../graders/graders.schemas.ts";
import { startWorkers, type Workers } from "../../workers.ts";
import { decideSimPlan } from "../../sim-plan/sim-plan.service.ts";
import { getSpanTree } from "../../replay/span-tree/span-tree.service.ts";
import { sweepQuietTraces } from "../completion/quiet.service.ts";
import { postOtlpTraces } from "../otlp/otlp.http.ts";
import { startHandlerServer, type TestServer } from "../testing/http-server.ts";
import { canonicalId } from "../../ids.ts";
import { postNativeTraces } from "./native.http.ts";
import { postNativeLogs } from "./native-logs.http.ts";
import { attributesJson, anyValueJson } from "./testing/otlp-builders.ts";
import { decodeExportLogsResponse, encodeExportLogsRequest } from "../../../proto/otlp.ts";
import { otlpJsonRequest, otlpProtobufRequest, spanIdHex, traceIdHex, type TestSpan } from "./testing/otlp-builders.ts";

const QUIET = 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An agent root with one chat span under it (GenAI conventions, current attributes). */
function chatTrace(traceId = traceIdHex()): { traceId: string; root: TestSpan; chat: TestSpan } {
  const t0 = Date.now() - 1000;
  const root: TestSpan = { traceId, spanId: spanIdHex(), name: "handle request", kind: 2, startMs: t0, endMs: t0 + 500, attributes: { "http.route": "/ask" } };
  const chat: TestSpan = {
    traceId,
    spanId: spanIdHex(),
    parentSpanId: root.spanId,
    name: "chat gpt-4o-mini",
    kind: 3,
    startMs: t0 + 10,
    endMs: t0 + 400,
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 5,
      "gen_ai.usage.reasoning.output_tokens": 2,
      "gen_ai.conversation.id": "conv-1",
      "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "What is 2+2?" }] }]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "4" }], finish_reason: "stop" }]),
      "gen_ai.system_instructions": JSON.stringify([{ type: "text", content: "Be brief." }]),
    },
  };
  return { traceId, root, chat };
}

describe("native OpenTelemetry door", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let server: TestServer;

  beforeAll(async () => {
    org = await createTestOrg(db());
    server = await startHandlerServer({ "/v1/logs": postNativeLogs, "/api/otel/v1/logs": postNativeLogs, "/v1/traces": postNativeTraces, "/api/otel/v1/traces": postNativeTraces, "/api/sdk/otel/v1/traces": postOtlpTraces });
  });
  afterAll(() => server?.close());

  const post = (path: string, body: Uint8Array | string, headers: Record<string, string>, apiKey = org.apiKey) =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, ...headers }, body: typeof body === "string" ? body : new Uint8Array(body) });
  const postJson = (request: unknown, apiKey = org.apiKey, path = "/v1/traces") => post(path, JSON.stringify(request), { "content-type": "application/json" }, apiKey);
  const traceRow = (o: TestOrg, otelTraceId: string) =>
    db().prisma.trace.findUniqueOrThrow({ where: { organizationId_id: { organizationId: o.organizationId, id: canonicalId(o.organizationId, otelTraceId) } } });
  const spansOf = (o: TestOrg, otelTraceId: string) =>
    db().prisma.span.findMany({ where: { organizationId: o.organizationId, traceId: canonicalId(o.organizationId, otelTraceId) }, orderBy: { startedAt: "asc" } });

  it("stores a GenAI trace with types, model, tokens and messages, and completes it after the quiet period", async () => {
    const o = await createTestOrg(db(), "genai");
    const { traceId, root, chat } = chatTrace();
    const res = await postJson(otlpJsonRequest([chat, root], { "service.name": "qa-bot" }), o.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({});
    const [r, c] = await spansOf(o, traceId);
    expect(r).toMatchObject({ name: "handle request", type: "custom", payloadType: "otel", instrumentation: "otel", parentSpanId: null, nodeKey: "qa-bot" });
    expect(c).toMatchObject({ type: "llm", model: "gpt-4o-mini-2024-07-18", inputTokens: 12, outputTokens: 5, totalTokens: 17, instrumentation: "otel-genai", spanOriginName: "test-scope" });
    const data = (c.rawSpan as { span_data: Record<string, unknown> }).span_data;
    expect(data.input).toEqual([{ role: "user", content: "What is 2+2?" }]);
    expect(data.output).toEqual([{ role: "assistant", content: "4", finish_reason: "stop" }]);
    expect(data.system_instructions).toEqual([{ type: "text", content: "Be brief." }]);
    // An unknown gen_ai.usage.* key is kept as metadata, never a reason to lose the span.
    expect(data.metadata).toMatchObject({ "gen_ai.usage.reasoning.output_tokens": 2, "gen_ai.provider.name": "openai" });
    let trace = await traceRow(o, traceId);
    expect(trace).toMatchObject({ status: "pending", name: "handle request", traceFunctionKey: "qa-bot", sessionId: "conv-1", completionMode: "quiet", source: "otel" });
    await sweepQuietTraces(db().sql, 3600); // not quiet for long enough yet
    expect((await traceRow(o, traceId)).status).toBe("pending");
    await sleep(QUIET * 1000 + 100);
    expect((await sweepQuietTraces(db().sql, QUIET)).completed).toBeGreaterThanOrEqual(1);
    trace = await traceRow(o, traceId);
    expect(trace.status).toBe("completed");
    expect(await db().prisma.traceEvent.count({ where: { organizationId: o.organizationId, traceId: trace.id, kind: "trace.completed" } })).toBe(1);
    // The root carried no input or output: the trace's own come from the first and last LLM span.
    const rootData = ((await spansOf(o, traceId))[0].rawSpan as { span_data: Record<string, unknown> }).span_data;
    expect(rootData).toMatchObject({ input: data.input, output: data.output, io_from: { input: c.id, output: c.id } });
  });

  it("stores the same trace identically from JSON and protobuf, plain, gzip or deflate, at both paths", async () => {
    const { root, chat } = chatTrace();
    const variants: Array<[string, "json" | "protobuf", string]> = [
      ["/v1/traces", "json", ""], ["/api/otel/v1/traces", "json", "gzip"], ["/v1/traces", "protobuf", ""], ["/api/otel/v1/traces", "protobuf", "deflate"],
    ];
    const rows: unknown[] = [];
    for (const [i, [path, format, encoding]] of variants.entries()) {
      const o = await createTestOrg(db(), `enc-${i}`);
      const raw = format === "json" ? Buffer.from(JSON.stringify(otlpJsonRequest([root, chat]))) : Buffer.from(otlpProtobufRequest([root, chat]));
      const body = encoding === "gzip" ? zlib.gzipSync(raw) : encoding === "deflate" ? zlib.deflateSync(raw) : raw;
      const res = await post(path, body, { "content-type": format === "json" ? "application/json" : "application/x-protobuf", ...(encoding ? { "content-encoding": encoding } : {}) }, o.apiKey);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain(format === "json" ? "json" : "protobuf");
      if (format === "protobuf") expect((await res.arrayBuffer()).byteLength).toBe(0);
      const spans = await spansOf(o, root.traceId);
      rows.push(spans.map(({ organizationId: _o, id: _i, traceId: _t, parentSpanId: _p, createdAt: _c, updatedAt: _u, ...rest }) => rest));
    }
    expect(rows[0]).toHaveLength(2);
    for (const r of rows.slice(1)) expect(r).toEqual(rows[0]);
  });

  it("reports unusable spans in partialSuccess with reasons, in the request's encoding, and stores the rest", async () => {
    const o = await createTestOrg(db(), "partial");
    const { root, chat } = chatTrace();
    const bad: TestSpan = { ...chat, spanId: "xyz", name: "bad" };
    const res = await postJson(otlpJsonRequest([root, bad, chat]), o.apiKey);
    const body = await res.json();
    expect(body.partialSuccess).toEqual({ rejectedSpans: 1, errorMessage: expect.stringContaining("resourceSpans[0].scopeSpans[0].spans[1]: spanId must be 8 bytes") });
    expect(await spansOf(o, root.traceId)).toHaveLength(2);
    const proto = await post("/v1/traces", otlpProtobufRequest([{ ...root, traceId: "00".repeat(16) }]), { "content-type": "application/x-protobuf" }, o.apiKey);
    expect(proto.status).toBe(200);
    expect(decodeExportResponse(new Uint8Array(await proto.arrayBuffer())).partialSuccess).toMatchObject({ rejectedSpans: 1, errorMessage: expect.stringContaining("traceId must be 16 bytes") });
  });

  it("answers auth, envelope, encoding and size errors like the carrier door, protobuf errors as Status", async () => {
    const bytes = otlpProtobufRequest([]);
    const unauthorized = await post("/v1/traces", bytes, { "content-type": "application/x-protobuf" }, "rp_wrong");
    expect(unauthorized.status).toBe(401);
    expect(decodeStatus(new Uint8Array(await unauthorized.arrayBuffer())).code).toBe(16);
    const json401 = await postJson({}, "rp_wrong");
    expect([json401.status, (await json401.json()).code]).toEqual([401, "unauthorized"]);
    expect((await post("/v1/traces", bytes, { "content-type": "application/x-protobuf", "content-encoding": "zstd" })).status).toBe(415);
    const bomb = zlib.gzipSync(Buffer.alloc(9_000_000, 0x20));
    expect((await post("/v1/traces", bomb, { "content-type": "application/json", "content-encoding": "gzip" })).status).toBe(413);
    const notList = await postJson({ resourceSpans: {} });
    expect(notList.status).toBe(400);
    expect((await notList.json()).error).toMatch(/Not an OTLP ExportTraceServiceRequest/);
    const junk = await post("/v1/traces", Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), { "content-type": "application/x-protobuf" });
    expect(junk.status).toBe(400);
    expect(decodeStatus(new Uint8Array(await junk.arrayBuffer())).code).toBe(3);
  });

  it("is idempotent on retries; a late span amends a completed trace and live graders re-run once", async () => {
    const o = await createTestOrg(db(), "amend");
    const grader = (await createGrader(db(), o.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse({ traceFunctionKey: "amend-svc", name: "says 4", kind: "rule", config: { target: { kind: "output" }, check: { op: "contains", value: "4" } } }))).grader;
    const worker: Workers = await startWorkers(db(), { pollIntervalMs: 100, maintenanceIntervalSeconds: 1 });
    try {
      const { traceId, root, chat } = chatTrace();
      const request = otlpJsonRequest([root, chat], { "service.name": "amend-svc" });
      await postJson(request, o.apiKey);
      const first = await traceRow(o, traceId);
      await sleep(50);
      await postJson(request, o.apiKey); // an exporter's retry: nothing new
      const retried = await traceRow(o, traceId);
      expect(retried.lastSpanAt).toEqual(first.lastSpanAt);
      expect(await spansOf(o, traceId)).toHaveLength(2);
      await sleep(QUIET * 1000 + 100);
      await sweepQuietTraces(db().sql, QUIET);
      const label = async () => db().prisma.graderLabel.findFirst({ where: { organizationId: o.organizationId, graderId: grader.id } });
      await until(async () => (await label()) !== null);
      expect(await label()).toMatchObject({ label: true, source: "live_grader" });
      const gradedAt = (await label())!.evaluatedAt!;
      await postJson(request, o.apiKey); // a retry after completion does not amend
      expect((await traceRow(o, traceId)).amendedAt).toBeNull();
      const late: TestSpan = { ...chat, spanId: spanIdHex(), name: "chat late", startMs: chat.endMs! + 10, endMs: chat.endMs! + 50, attributes: { ...chat.attributes, "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "five" }] }]) } };
      await postJson(otlpJsonRequest([late], { "service.name": "amend-svc" }), o.apiKey);
      const amended = await traceRow(o, traceId);
      expect(amended.status).toBe("completed");
      expect(amended.amendedAt).not.toBeNull();
      expect(await spansOf(o, traceId)).toHaveLength(3);
      await sleep(QUIET * 1000 + 100);
      expect((await sweepQuietTraces(db().sql, QUIET)).amended).toBe(1);
      await until(async () => (await label())!.evaluatedAt!.getTime() > gradedAt.getTime());
      // Re-graded on the amended trace: its output now comes from the late (last) LLM span.
      expect(await label()).toMatchObject({ label: false });
      const regradedAt = (await label())!.evaluatedAt;
      const later: TestSpan = { ...late, spanId: spanIdHex(), name: "chat later" };
      await postJson(otlpJsonRequest([later], { "service.name": "amend-svc" }), o.apiKey);
      await sleep(QUIET * 1000 + 100);
      expect((await sweepQuietTraces(db().sql, QUIET)).amended).toBe(0);
      await sleep(500);
      expect((await label())!.evaluatedAt).toEqual(regradedAt);
      expect(await db().prisma.traceEvent.count({ where: { organizationId: o.organizationId, traceId: amended.id } })).toBe(2);
    } finally {
      await worker.stop();
    }
  });

  it("never completes a trace whose root has not arrived", async () => {
    const o = await createTestOrg(db(), "rootless");
    const { traceId, chat } = chatTrace();
    await postJson(otlpJsonRequest([chat]), o.apiKey);
    await sleep(QUIET * 1000 + 100);
    await sweepQuietTraces(db().sql, QUIET);
    expect((await traceRow(o, traceId)).status).toBe("pending");
  });

  it("treats a span whose parent is in another process as the trace's root, so the trace completes", async () => {
    const o = await createTestOrg(db(), "remote-parent");
    const { traceId, root, chat } = chatTrace();
    const entry = { ...root, parentSpanId: spanIdHex(), flags: 0x301 }; // called by an upstream service
    await postJson(otlpJsonRequest([entry, chat]), o.apiKey);
    const stored = await spansOf(o, traceId);
    expect(stored[0]).toMatchObject({ name: "handle request", parentSpanId: null, sourceParentSpanId: null });
    expect(stored[1].parentSpanId).toBe(stored[0].id);
    await sleep(QUIET * 1000 + 100);
    await sweepQuietTraces(db().sql, QUIET);
    expect((await traceRow(o, traceId)).status).toBe("completed");
  });

  it("locks the imported spans' sim plan nodes", async () => {
    const o = await createTestOrg(db(), "simplan");
    const { root, chat } = chatTrace();
    await postJson(otlpJsonRequest([root, chat], { "service.name": "locked-svc" }), o.apiKey);
    const { refused } = await decideSimPlan(db(), o.organizationId, null, [{ traceFunctionKey: "locked-svc", name: chat.name, captureContent: false }]);
    expect(refused).toEqual([expect.objectContaining({ name: chat.name, reason: expect.stringContaining("imported from another platform") })]);
    // Never mocked on replay: the span tree an SDK mocks from offers neither the spans nor their outputs.
    const rootId = (await spansOf(o, root.traceId)).find((s) => s.parentSpanId === null)!.id;
    const tree = await getSpanTree(db(), o.organizationId, rootId, { includeOutputs: true, includeRootOutput: true });
    expect(tree.root).toMatchObject({ spanName: root.name, children: [] });
    expect(tree.root).not.toHaveProperty("output");
  });

  it("takes the trace function from reprise.trace_function on the root span and gives it to every span at completion", async () => {
    const o = await createTestOrg(db(), "keyed");
    const { traceId, root, chat } = chatTrace();
    await postJson(otlpJsonRequest([chat], { "service.name": "svc" }), o.apiKey);
    await postJson(otlpJsonRequest([{ ...root, attributes: { "reprise.trace_function": "answer-question" } }], { "service.name": "svc" }), o.apiKey);
    expect((await traceRow(o, traceId)).traceFunctionKey).toBe("answer-question");
    await sleep(QUIET * 1000 + 100);
    await sweepQuietTraces(db().sql, QUIET);
    expect((await spansOf(o, traceId)).map((s) => s.nodeKey)).toEqual(["answer-question", "answer-question"]);
  });

  it("attaches GenAI events sent as log records to their span, whichever arrives first, once each", async () => {
    const o = await createTestOrg(db(), "logs");
    const { traceId, root, chat } = chatTrace();
    const bare = { ...chat, attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" } };
    const record = (name: string, body: unknown, span = bare) => ({
      timeUnixNano: `${BigInt(Date.now()) * 1_000_000n}`, eventName: name, traceId: span.traceId, spanId: span.spanId,
      attributes: attributesJson({ "gen_ai.system": "openai" }), body: anyValueJson(body),
    });
    const logs = (records: unknown[]) => ({ resourceLogs: [{ resource: { attributes: attributesJson({ "service.name": "logs-svc" }) }, scopeLogs: [{ scope: { name: "x" }, logRecords: records }] }] });
    const postLogs = (request: unknown) => post("/v1/logs", JSON.stringify(request), { "content-type": "application/json" }, o.apiKey);
    // The question arrives before its span, the answer after it; an app log line is ignored.
    const first = await postLogs(logs([record("gen_ai.user.message", { content: "hi?" }), { body: { stringValue: "GET /ask 200" }, attributes: [] }]));
    expect(await first.json()).toEqual({});
    await postJson(otlpJsonRequest([root, bare]), o.apiKey);
    const answer = logs([record("gen_ai.choice", { index: 0, finish_reason: "stop", message: { content: "hello" } })]);
    await postLogs(answer);
    await postLogs(answer); // a retried export adds nothing
    const chatRow = (await spansOf(o, traceId)).find((s) => s.type === "llm")!;
    expect((chatRow.rawSpan as { span_data: Record<string, unknown> }).span_data).toMatchObject({
      input: [{ role: "user", content: "hi?" }],
      output: [{ role: "assistant", content: "hello", finish_reason: "stop" }],
    });
    expect(await db().prisma.otelSpanEvent.count({ where: { organizationId: o.organizationId } })).toBe(2);
    // A GenAI event without a span context is reported; protobuf requests get protobuf answers.
    const orphan = encodeExportLogsRequest({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ eventName: "gen_ai.user.message", body: { stringValue: "x" } }] }] }] });
    const res = await post("/api/otel/v1/logs", orphan, { "content-type": "application/x-protobuf" }, o.apiKey);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    expect(decodeExportLogsResponse(new Uint8Array(await res.arrayBuffer())).partialSuccess).toMatchObject({ rejectedLogRecords: 1, errorMessage: expect.stringContaining("belongs to no span") });
  });

  it("the carrier endpoint stores no plain GenAI span, and its partialSuccess says how many it ignored and names the native door", async () => {
    const o = await createTestOrg(db(), "carrier");
    const { root, chat } = chatTrace();
    const res = await postJson(otlpJsonRequest([root, chat]), o.apiKey, "/api/sdk/otel/v1/traces");
    // Ignored, not rejected: OTLP's warning form (0 rejected, a message), so a Collector logs it.
    expect(await res.json()).toEqual({
      partialSuccess: { rejectedSpans: 0, errorMessage: expect.stringMatching(/^2 span\(s\) ignored: not Reprise carriers .* native door, POST \/v1\/traces on this server/) },
      traceIds: {},
    });
    const proto = await post("/api/sdk/otel/v1/traces", otlpProtobufRequest([root]), { "content-type": "application/x-protobuf" }, o.apiKey);
    expect(decodeExportResponse(new Uint8Array(await proto.arrayBuffer())).partialSuccess).toEqual({ errorMessage: expect.stringContaining("1 span(s) ignored") });
    expect(await db().prisma.span.count({ where: { organizationId: o.organizationId } })).toBe(0);
    expect(await db().sql.query(sql`SELECT 1 FROM traces WHERE organization_id = ${o.organizationId}::uuid`)).toEqual([]);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await sleep(100);
  }
}
