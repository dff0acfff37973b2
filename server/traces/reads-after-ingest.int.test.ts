// What the ingestion endpoints store reads back through the trace, span and sim plan reads: the contract
// between the write path (server/ingest) and the read path, with the SDKs' own payload shapes (docs/api/ingestion.md).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { postExternalSpan, postExternalTrace } from "../ingest/ingest.http.ts";
import { canonicalId } from "../ids.ts";
import { getSimPlanRoute, postSimPlanRoute } from "../sim-plan/sim-plan.http.ts";
import { ZSimPlanPostResponse } from "../sim-plan/sim-plan.schemas.ts";
import { getExternalSpanRoute, getTraceSpanRoute } from "../spans/spans.http.ts";
import { ZExternalSpanResponse, ZSpanResponse } from "../spans/spans.schemas.ts";
import { getTraceRoute, listTracesRoute, patchTraceRoute } from "./traces.http.ts";
import { ZTraceListResponse, ZTraceResponse } from "./traces.schemas.ts";

describe("reads of ingested traces", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  const traceId = randomUUID();
  const rootId = randomUUID();
  const origin = { name: "reprise.sdk.typescript", version: "0.1.0" };

  beforeAll(async () => {
    org = await createTestOrg(db());
    const span = (id: string, parent: string | null, name: string, start: string, end: string, data: Record<string, unknown>, instrumentation = "span") => ({
      type: "sdk-function",
      source: "typescript-sdk-function",
      sourceTraceId: traceId,
      traceFunctionKey: "support",
      sdkVersion: "0.1.0",
      rawSpan: {
        id,
        trace_id: traceId,
        ...(parent ? { parent_id: parent } : {}),
        started_at: start,
        ended_at: end,
        span_origin: { ...origin, instrumentation: { name: instrumentation } },
        span_data: { name, type: "llm", ...data },
      },
    });
    const posts = [
      span(rootId, null, "handle", "2026-11-22T10:00:00.000100Z", "2026-11-22T10:00:02.000000Z", { input: ["q"], output: "a" }, "trace"),
      span("toolu_1", rootId, "callModel", "2026-11-22T10:00:00.100000Z", "2026-11-22T10:00:00.600000Z", {
        input: [{ at: "1970-01-01T00:00:00.000Z" }],
        input_meta: { values: { "0.at": ["Date"] }, v: 1 },
        output: { text: "first" },
        contexts: [{ model: "gpt-x", inputTokens: 12, outputTokens: 3, cacheReadTokens: 2 }],
        prompt: "Be brief",
      }),
      span("toolu_2", rootId, "callModel", "2026-11-22T10:00:00.700000Z", "2026-11-22T10:00:01.000000Z", {
        output: { text: "second" },
        contexts: [{ model: "gpt-x", inputTokens: 5, outputTokens: 1 }],
      }),
    ];
    for (const body of posts) expect((await call(postExternalSpan, { apiKey: org.apiKey, body, encoding: "gzip" })).status).toBe(200);
    const completion = {
      id: traceId,
      name: "Ticket 17",
      type: "sdk-function",
      source: "typescript-sdk-function",
      traceFunctionKey: "support",
      completed: true,
      sessionId: "sess-1",
      expectedSpanCount: 3,
      sdkVersion: "0.1.0",
      externalTrace: { id: traceId, started_at: "2026-11-22T10:00:00.000100Z", ended_at: "2026-11-22T10:00:02.000000Z", metadata: { tenant: "acme" } },
    };
    expect((await call(postExternalTrace, { apiKey: org.apiKey, body: completion })).status).toBe(200);
  });

  it("reads the trace with metrics derived from the ingested spans, and lists it", async () => {
    const res = await call(getTraceRoute, { apiKey: org.apiKey, params: { traceId } });
    expect(res.status).toBe(200);
    expect(ZTraceResponse.parse(res.body).trace).toMatchObject({
      id: traceId,
      name: "Ticket 17",
      traceFunctionKey: "support",
      status: "completed",
      sessionId: "sess-1",
      metadata: { tenant: "acme" },
      expectedSpanCount: 3,
      dropped: false,
      spanCount: 3,
      durationMs: 2000,
      tokens: { input: 17, output: 4, cached: 2, total: 21 },
      model: "gpt-x",
    });
    const list = ZTraceListResponse.parse((await call(listTracesRoute, { apiKey: org.apiKey, path: "/api/sdk/traces?search=ticket" })).body);
    expect(list.traces.map((t) => t.id)).toEqual([traceId]);
  });

  it("reads spans by name and occurrence with canonical ids only", async () => {
    const get = async (q: string) =>
      ZSpanResponse.parse((await call(getTraceSpanRoute, { apiKey: org.apiKey, params: { traceId }, path: `/x${q}` })).body).span;
    const first = await get("?name=callModel&occurrence=first");
    expect(first).toMatchObject({
      id: canonicalId(org.organizationId, "toolu_1"),
      traceId,
      parentSpanId: rootId,
      output: { text: "first" },
      prompt: "Be brief",
      metrics: { durationMs: 500, tokens: { input: 12, output: 3, cached: 2, total: 15 }, model: "gpt-x" },
      metadata: { instrumentation: "span", spanOrigin: origin },
    });
    expect((await get("?name=callModel"))?.output).toEqual({ text: "second" });
    expect((await get(`?id=${rootId}`))?.name).toBe("handle");
    expect(JSON.stringify(first)).not.toContain("toolu_");
  });

  it("serves the replay view of an ingested span verbatim", async () => {
    const id = canonicalId(org.organizationId, "toolu_1");
    const res = await call(getExternalSpanRoute, { apiKey: org.apiKey, params: { id }, path: `/x?view=replay` });
    expect(ZExternalSpanResponse.parse(res.body)).toEqual({
      id,
      externalTraceId: traceId,
      rawData: { span_data: { input: [{ at: "1970-01-01T00:00:00.000Z" }], input_meta: { values: { "0.at": ["Date"] }, v: 1 }, output: { text: "first" } } },
    });
  });

  it("locks the ingested root node in the sim plan and accepts the child node", async () => {
    const decisions = [
      { traceFunctionKey: "support", name: "handle", captureContent: false },
      { traceFunctionKey: "support", name: "callModel", captureContent: false },
    ];
    const res = ZSimPlanPostResponse.parse((await call(postSimPlanRoute, { apiKey: org.apiKey, body: { decisions } })).body);
    expect(res.refused.map((r) => r.name)).toEqual(["handle"]);
    expect((await call(getSimPlanRoute, { apiKey: org.apiKey })).body).toEqual({ nodes: [decisions[1]] });
  });

  it("applies a detached update to the ingested trace", async () => {
    const res = await call(patchTraceRoute, { apiKey: org.apiKey, method: "PATCH", params: { traceId }, body: { mergeMetadata: { customer: "c-1" } } });
    expect(ZTraceResponse.parse(res.body).trace.metadata).toEqual({ tenant: "acme", customer: "c-1" });
  });
});
