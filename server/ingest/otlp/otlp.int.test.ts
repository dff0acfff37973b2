// POST /api/sdk/otel/v1/traces driven by the official OpenTelemetry exporters over real HTTP
//, plus the envelope rules of docs/api/ingestion.md ("OTLP") and the encoding of every answer.
import { randomUUID } from "node:crypto";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { decodeExportResponse, decodeStatus, encodeExportRequest } from "../../../proto/otlp.ts";
import { postExternalSpan, postExternalTrace } from "../ingest.http.ts";
import { carrierSpans, exportSpans } from "../testing/otel-clients.ts";
import { startHandlerServer, type TestServer } from "../testing/http-server.ts";
import { carrierSpanJson, completionPayload, otlpJsonRequest, spanPayload } from "../testing/payloads.ts";
import { postOtlpTraces } from "./otlp.http.ts";

const OTLP_PATH = "/api/sdk/otel/v1/traces";

describe("OTLP ingestion", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let server: TestServer;
  beforeAll(async () => {
    org = await createTestOrg(db());
    server = await startHandlerServer({
      [OTLP_PATH]: postOtlpTraces,
      "/api/sdk/externalSpans": postExternalSpan,
      "/api/sdk/externalTraces": postExternalTrace,
    });
  });
  afterAll(() => server?.close());

  const post = (body: Buffer | string, headers: Record<string, string>, apiKey = org.apiKey) =>
    fetch(`${server.url}${OTLP_PATH}`, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, ...headers }, body: typeof body === "string" ? body : new Uint8Array(body) });
  const postJson = (request: unknown, apiKey = org.apiKey) => post(JSON.stringify(request), { "content-type": "application/json" }, apiKey);
  const lastExchange = () => server.exchanges[server.exchanges.length - 1];
  const spanCount = (organizationId: string) => db().prisma.span.count({ where: { organizationId } });

  /** Stored rows of one organization without the columns that differ by nature (tenant, write times). */
  async function storedRows(organizationId: string) {
    const spans = await db().prisma.span.findMany({ where: { organizationId }, orderBy: { id: "asc" } });
    const traces = await db().prisma.trace.findMany({ where: { organizationId }, orderBy: { id: "asc" } });
    const strip = <T extends Record<string, unknown>>(row: T, keys: string[]) =>
      Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));
    return {
      spans: spans.map((s) => strip(s, ["organizationId", "createdAt", "updatedAt"])),
      traces: traces.map((t) => strip(t, ["organizationId", "createdAt", "updatedAt", "completionSignalAt", "completedAt"])),
    };
  }

  it("stores the same span identically over REST, OTLP/JSON and OTLP/protobuf, gzipped or not", async () => {
    const traceId = randomUUID();
    const root = randomUUID();
    const span = spanPayload({ traceId, spanId: root, contexts: [{ model: "m", inputTokens: 1, outputTokens: 2 }], input: [{ nested: ["é", "😀", 1.5, null] }] });
    const child = spanPayload({ traceId, spanId: randomUUID(), parentId: root, name: "tool" });
    const completion = completionPayload({ traceId, expectedSpanCount: 2, externalTrace: { metadata: { tenant: "acme" } } });
    const carriers = [
      { operation: "external_span", payload: span },
      { operation: "external_span", payload: child },
      { operation: "external_trace", payload: completion },
    ];
    const orgs = await Promise.all(["rest", "rest-gzip", "json", "json-gzip", "proto", "proto-gzip"].map((n) => createTestOrg(db(), n)));
    for (const [i, gzip] of [[0, false], [1, true]] as const) {
      for (const [path, body] of [["/api/sdk/externalSpans", span], ["/api/sdk/externalSpans", child], ["/api/sdk/externalTraces", completion]] as const) {
        const raw = Buffer.from(JSON.stringify(body));
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${orgs[i].apiKey}`, "content-type": "application/json", ...(gzip ? { "content-encoding": "gzip" } : {}) },
          body: gzip ? zlib.gzipSync(raw) : raw,
        });
        expect(res.status).toBe(200);
      }
    }
    const otlp: Array<[number, "json" | "protobuf", boolean]> = [[2, "json", false], [3, "json", true], [4, "protobuf", false], [5, "protobuf", true]];
    for (const [i, kind, gzip] of otlp) {
      const result = await exportSpans(kind, `${server.url}${OTLP_PATH}`, orgs[i].apiKey, await carrierSpans(carriers), { gzip });
      expect(result).toMatchObject({ code: 0 });
      const exchange = lastExchange();
      expect(exchange.requestHeaders.get("content-type")).toContain(kind === "json" ? "json" : "protobuf");
      expect(exchange.requestHeaders.get("content-encoding") ?? "").toBe(gzip ? "gzip" : "");
      expect(exchange.responseHeaders.get("content-type")).toContain(kind === "json" ? "json" : "protobuf");
      if (kind === "json") expect(JSON.parse(exchange.responseBody.toString())).toEqual({ traceIds: { [traceId]: traceId } });
      else expect(exchange.responseBody.length).toBe(0); // an empty ExportTraceServiceResponse: full success
    }
    const reference = await storedRows(orgs[0].organizationId);
    expect(reference.spans).toHaveLength(2);
    expect(reference.traces).toEqual([expect.objectContaining({ status: "completed", metadata: { tenant: "acme" } })]);
    for (const o of orgs.slice(1)) expect(await storedRows(o.organizationId)).toEqual(reference);
  });

  it("stores the valid carriers of a request with malformed ones and reports rejectedSpans, in JSON and protobuf", async () => {
    const valid = () => [0, 1, 2].map(() => ({ operation: "external_span", payload: spanPayload({ traceId: randomUUID() }) }));
    const malformed = [
      { operation: "external_span", payload: "{not json" },
      { operation: "external_span", payload: { type: "sdk-function", rawSpan: { id: "x" } } },
    ];
    const jsonOrg = await createTestOrg(db(), "partial-json");
    const res = await postJson(otlpJsonRequest([...valid(), ...malformed].map(carrierSpanJson)), jsonOrg.apiKey);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.partialSuccess.rejectedSpans).toBe(2);
    expect(body.partialSuccess.errorMessage).toMatch(/2 carrier\(s\) rejected: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[3\]: payload is not valid JSON.*spans\[4\]: invalid payload: sourceTraceId/);
    expect(Object.keys(body.traceIds)).toHaveLength(3);
    expect(await spanCount(jsonOrg.organizationId)).toBe(3);

    const protoOrg = await createTestOrg(db(), "partial-proto");
    const result = await exportSpans("protobuf", `${server.url}${OTLP_PATH}`, protoOrg.apiKey, await carrierSpans([...valid(), ...malformed]));
    expect(result.code).toBe(0); // partial success is not an export failure
    const exchange = lastExchange();
    expect(exchange.responseHeaders.get("content-type")).toBe("application/x-protobuf");
    expect(decodeExportResponse(exchange.responseBody).partialSuccess).toMatchObject({ rejectedSpans: 2, errorMessage: expect.stringContaining("not valid JSON") });
    expect(await spanCount(protoOrg.organizationId)).toBe(3);
  });

  it("rejects unknown operations, non-string payloads and internal traces of unknown functions per carrier", async () => {
    const o = await createTestOrg(db(), "carrier-problems");
    const functionId = randomUUID();
    await db().prisma.promptFunction.create({ data: { id: functionId, organizationId: o.organizationId, name: "fn" } });
    const nonString = carrierSpanJson({ operation: "external_span", payload: "{}" });
    (nonString.attributes as Array<{ value: unknown }>)[1].value = { intValue: "5" };
    const res = await postJson(
      otlpJsonRequest([
        carrierSpanJson({ operation: "replay_start", payload: {} }),
        nonString,
        carrierSpanJson({ operation: "internal_trace", payload: { functionId: randomUUID(), result: "x" } }),
        carrierSpanJson({ operation: "internal_trace", payload: { functionId, result: "ok", inputs: { a: 1 } } }),
        { name: "not a carrier", attributes: [{ key: "http.method", value: { stringValue: "GET" } }] },
      ]),
      o.apiKey,
    );
    const body = await res.json();
    expect(body.partialSuccess.rejectedSpans).toBe(3);
    expect(body.partialSuccess.errorMessage).toContain('unknown operation "replay_start"');
    expect(body.partialSuccess.errorMessage).toContain("reprise.payload must be a stringValue");
    expect(body.partialSuccess.errorMessage).toMatch(/function [0-9a-f-]+ not found/);
    expect(await db().prisma.functionExecution.findMany({ where: { organizationId: o.organizationId }, select: { result: true } })).toEqual([{ result: "ok" }]);
  });

  it("stores each span once when a batch is sent twice, and keeps two source traces of one OTel trace apart", async () => {
    const o = await createTestOrg(db(), "twice");
    const [t1, t2] = [randomUUID(), "foreign-trace-id"];
    const carriers = [
      { operation: "external_span", payload: spanPayload({ traceId: t1 }) },
      { operation: "external_span", payload: spanPayload({ traceId: t2, spanId: "span_x" }), prefix: "bitfab" as const },
      { operation: "external_trace", payload: completionPayload({ traceId: t1, expectedSpanCount: 1 }) },
    ];
    const spans = await carrierSpans(carriers, { oneOtelTrace: true });
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    for (let i = 0; i < 2; i++) expect((await exportSpans("json", `${server.url}${OTLP_PATH}`, o.apiKey, spans)).code).toBe(0);
    expect(await spanCount(o.organizationId)).toBe(2);
    const traces = await db().prisma.trace.findMany({ where: { organizationId: o.organizationId }, select: { sourceTraceId: true, status: true } });
    expect(traces.sort((a, b) => a.sourceTraceId.localeCompare(b.sourceTraceId))).toEqual(
      [{ sourceTraceId: t1, status: "completed" }, { sourceTraceId: t2, status: "pending" }].sort((a, b) => a.sourceTraceId.localeCompare(b.sourceTraceId)),
    );
    expect(await db().prisma.traceEvent.count({ where: { organizationId: o.organizationId } })).toBe(1);
  });

  it("answers 400 and stores nothing for an envelope that is not an ExportTraceServiceRequest", async () => {
    const o = await createTestOrg(db(), "envelopes");
    const good = carrierSpanJson({ operation: "external_span", payload: spanPayload({ traceId: randomUUID() }) });
    const cases: unknown[] = [
      { resourceSpans: {} },
      { resourceSpans: [good] .map(() => 5) },
      { resourceSpans: [{ scopeSpans: [{ spans: [good, "x"] }] }] },
      [otlpJsonRequest([good])],
    ];
    for (const request of cases) {
      const res = await postJson(request, o.apiKey);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/Not an OTLP ExportTraceServiceRequest/);
    }
    const notJson = await post("{", { "content-type": "application/json" }, o.apiKey);
    expect(notJson.status).toBe(400);
    const junk = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), { "content-type": "application/x-protobuf" }, o.apiKey);
    expect(junk.status).toBe(400);
    expect(junk.headers.get("content-type")).toBe("application/x-protobuf");
    expect(decodeStatus(Buffer.from(await junk.arrayBuffer()))).toMatchObject({ code: 3, message: expect.stringContaining("cannot be decoded") });
    expect(await spanCount(o.organizationId)).toBe(0);
    // An empty request is a valid, empty export.
    expect(await (await postJson({})).json()).toEqual({ traceIds: {} });
  });

  it("answers auth and size errors of protobuf requests as protobuf Status bodies", async () => {
    const bytes = encodeExportRequest({ resourceSpans: [] });
    const unauthorized = await post(Buffer.from(bytes), { "content-type": "application/x-protobuf" }, "rp_wrong");
    expect(unauthorized.status).toBe(401);
    expect(decodeStatus(Buffer.from(await unauthorized.arrayBuffer())).code).toBe(16);
    const json401 = await postJson({}, "rp_wrong");
    expect(json401.status).toBe(401);
    expect((await json401.json()).code).toBe("unauthorized");
    const zstd = await post(Buffer.from(bytes), { "content-type": "application/x-protobuf", "content-encoding": "zstd" });
    expect(zstd.status).toBe(415);
  });
});
