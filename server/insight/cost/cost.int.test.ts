// Cost against a real database: prices at ingestion (SDK contexts and the native GenAI usage keys), trace sums,
// organization overrides with versions, unpriced spans, and the recompute job.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { sql } from "../../db/sql.ts";
import { postExternalSpan } from "../../ingest/ingest.http.ts";
import { postNativeTraces } from "../../ingest/native/native.http.ts";
import { spanPayload } from "../../ingest/testing/payloads.ts";
import { deleteModelPrice, getModelPriceVersions, getRecomputeRoute, listModelPrices, listUnpricedSpans, postModelPrice, postRecompute, restoreModelPrice } from "./cost.http.ts";
import { ZPriceResponse, ZPriceTableResponse, ZPriceVersionsResponse, ZRecomputeResponse, ZUnpricedResponse } from "./cost.schemas.ts";
import { runRecompute } from "./recompute.service.ts";
import { listTracesRoute } from "../../traces/traces.http.ts";
import { ZTraceListResponse } from "../../traces/traces.schemas.ts";

const DAY = "2026-09-01";
const range = { from: `${DAY}T00:00:00Z`, to: `${DAY}T23:59:59Z` };

describe("cost", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  let b: TestOrg;
  beforeAll(async () => {
    a = await createTestOrg(db(), "A");
    b = await createTestOrg(db(), "B");
  });

  const llmSpan = (org: TestOrg, traceId: string, model: string, tokens: Record<string, number>) =>
    call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId, contexts: [{ model, ...tokens }] }) });
  const costs = async (org: TestOrg, traceId: string) => {
    const rows = await db().sql.query<{ span: string | null; trace: string | null }>(sql`
      SELECT s.cost_usd::text AS span, t.cost_usd::text AS trace FROM traces t JOIN spans s ON s.organization_id = t.organization_id AND s.trace_id = t.id
      WHERE t.organization_id = ${org.organizationId}::uuid AND t.source_trace_id = ${traceId} ORDER BY s.id`);
    return rows.map((r) => ({ span: r.span === null ? null : Number(r.span), trace: r.trace === null ? null : Number(r.trace) }));
  };

  it("costs an LLM span at ingestion from its tokens with a default price, and sums the trace", async () => {
    const traceId = randomUUID();
    expect((await llmSpan(a, traceId, "gpt-4o-2024-08-06", { inputTokens: 1000, cachedTokens: 200, outputTokens: 100 })).status).toBe(200);
    expect((await llmSpan(a, traceId, "gpt-4o-mini", { inputTokens: 2000, outputTokens: 500 })).status).toBe(200);
    // gpt-4o: 800 × 2.5 + 200 × 1.25 + 100 × 10 = 3250 per million; gpt-4o-mini: 2000 × 0.15 + 500 × 0.6 = 600.
    const rows = await costs(a, traceId);
    expect(rows.map((r) => r.span).sort()).toEqual([0.0006, 0.00325]);
    expect(rows[0]!.trace).toBeCloseTo(0.00385, 10);
  });

  it("costs native OpenTelemetry spans from the gen_ai.usage keys", async () => {
    const traceHex = randomUUID().replace(/-/g, "");
    const start = BigInt(Date.parse(`${DAY}T10:00:00Z`)) * 1_000_000n;
    const attr = (key: string, value: unknown) => ({ key, value: typeof value === "number" ? { intValue: String(value) } : { stringValue: value } });
    const body = { resourceSpans: [{ resource: { attributes: [attr("service.name", "svc")] }, scopeSpans: [{ spans: [{
      traceId: traceHex, spanId: "a1b2c3d4e5f60718", name: "chat claude", kind: 3,
      startTimeUnixNano: String(start), endTimeUnixNano: String(start + 1_000_000_000n), status: {},
      attributes: [attr("gen_ai.operation.name", "chat"), attr("gen_ai.request.model", "claude-3-5-haiku-20241022"),
        attr("gen_ai.usage.input_tokens", 1_000_000), attr("gen_ai.usage.output_tokens", 1000)],
    }] }] }] };
    const res = await call(postNativeTraces, { apiKey: a.apiKey, body });
    expect(res.status).toBe(200);
    const rows = await db().sql.query<{ cost: string }>(sql`
      SELECT cost_usd::text AS cost FROM spans WHERE organization_id = ${a.organizationId}::uuid AND model LIKE 'claude-3-5-haiku%'`);
    // 1M × 0.8 + 1000 × 4 per million
    expect(rows.map((r) => Number(r.cost))).toEqual([0.804]);
  });

  it("lists spans no price matched, never costed at zero, and prices them once an override exists and a recompute runs", async () => {
    const traceId = randomUUID();
    await llmSpan(a, traceId, "acme-local-7b", { inputTokens: 1_000_000, outputTokens: 1_000_000 });
    expect((await costs(a, traceId))[0]).toEqual({ span: null, trace: null });
    const unpriced = ZUnpricedResponse.parse((await call(listUnpricedSpans, { apiKey: a.apiKey, path: `/?from=${range.from}&to=${range.to}` })).body);
    expect(unpriced.models).toEqual([expect.objectContaining({ model: "acme-local-7b", spans: 1, traces: 1, matchesNow: false })]);
    expect(unpriced.spans[0]).toMatchObject({ model: "acme-local-7b", inputTokens: 1_000_000 });
    // Another organization sees none of it.
    const other = ZUnpricedResponse.parse((await call(listUnpricedSpans, { apiKey: b.apiKey, path: `/?from=${range.from}&to=${range.to}` })).body);
    expect(other.models).toEqual([]);

    const created = await call(postModelPrice, { apiKey: a.apiKey, body: { modelPattern: "acme-local-*", inputPerMtok: 1, outputPerMtok: 2 } });
    expect(created.status).toBe(200);
    const price = ZPriceResponse.parse(created.body).price;
    expect(price).toMatchObject({ source: "organization", version: 1 });
    const again = ZUnpricedResponse.parse((await call(listUnpricedSpans, { apiKey: a.apiKey, path: `/?from=${range.from}&to=${range.to}` })).body);
    expect(again.models[0]).toMatchObject({ model: "acme-local-7b", matchesNow: true });

    const started = await call(postRecompute, { apiKey: a.apiKey, body: range });
    expect(started.status).toBe(202);
    const recompute = ZRecomputeResponse.parse(started.body).recompute;
    expect(recompute).toMatchObject({ status: "queued", tracesDone: 0 });
    expect(recompute.tracesTotal).toBeGreaterThanOrEqual(3);
    await runRecompute(db(), { organizationId: a.organizationId, recomputeId: recompute.id });
    const done = ZRecomputeResponse.parse((await call(getRecomputeRoute, { apiKey: a.apiKey, params: { id: recompute.id } })).body).recompute;
    expect(done).toMatchObject({ status: "done", tracesDone: recompute.tracesTotal, spansUnpriced: 0 });
    expect(await costs(a, traceId)).toEqual([{ span: 3, trace: 3 }]);
    // The trace list's cost filter and column (REST).
    const listed = await call(listTracesRoute, { apiKey: a.apiKey, path: "/?minCostUsd=2.5" });
    expect(ZTraceListResponse.parse(listed.body).traces.map((t) => [t.costUsd])).toEqual([[3]]);
    // B cannot read A's recompute.
    expect((await call(getRecomputeRoute, { apiKey: b.apiKey, params: { id: recompute.id } })).status).toBe(404);
  });

  it("overrides a default, keeps every version, restores an earlier one and recomputes with it", async () => {
    const traceId = randomUUID();
    await llmSpan(a, traceId, "gpt-4o", { inputTokens: 1_000_000, outputTokens: 0 });
    expect((await costs(a, traceId))[0]!.span).toBe(2.5);
    const v1 = ZPriceResponse.parse((await call(postModelPrice, { apiKey: a.apiKey, body: { modelPattern: "gpt-4o", inputPerMtok: 2, outputPerMtok: 8 } })).body).price;
    const v2 = ZPriceResponse.parse((await call(postModelPrice, { apiKey: a.apiKey, body: { id: v1.id, modelPattern: "gpt-4o", inputPerMtok: 3, outputPerMtok: 8 } })).body).price;
    expect(v2).toMatchObject({ id: v1.id, version: 2, inputPerMtok: 3 });
    const table = ZPriceTableResponse.parse((await call(listModelPrices, { apiKey: a.apiKey })).body);
    expect(table.prices.find((p) => p.id === "default:gpt-4o")).toMatchObject({ overridden: true });
    expect(table.prices.filter((p) => p.source === "organization").map((p) => p.inputPerMtok)).toContain(3);
    // B still has the default.
    const tableB = ZPriceTableResponse.parse((await call(listModelPrices, { apiKey: b.apiKey })).body);
    expect(tableB.prices.find((p) => p.id === "default:gpt-4o")).toMatchObject({ overridden: false, inputPerMtok: 2.5 });

    const start = async () => ZRecomputeResponse.parse((await call(postRecompute, { apiKey: a.apiKey, body: range })).body).recompute.id;
    await runRecompute(db(), { organizationId: a.organizationId, recomputeId: await start() });
    expect((await costs(a, traceId))[0]).toEqual({ span: 3, trace: 3 });

    expect((await call(restoreModelPrice, { apiKey: a.apiKey, params: { id: v1.id }, body: { version: 1 } })).status).toBe(200);
    const versions = ZPriceVersionsResponse.parse((await call(getModelPriceVersions, { apiKey: a.apiKey, params: { id: v1.id } })).body).versions;
    expect(versions.map((v) => [v.version, v.inputPerMtok, v.supersededAt === null])).toEqual([[3, 2, true], [2, 3, false], [1, 2, false]]);
    expect(versions[0]!.changedByUserId).toBe(a.userId);
    await runRecompute(db(), { organizationId: a.organizationId, recomputeId: await start() });
    expect((await costs(a, traceId))[0]!.span).toBe(2);

    // Deleting is a version too; the default prices again after a recompute.
    expect((await call(deleteModelPrice, { apiKey: a.apiKey, method: "DELETE", params: { id: v1.id } })).status).toBe(200);
    await runRecompute(db(), { organizationId: a.organizationId, recomputeId: await start() });
    expect((await costs(a, traceId))[0]!.span).toBe(2.5);
    expect((await call(restoreModelPrice, { apiKey: a.apiKey, params: { id: v1.id }, body: { version: 4 } })).status).toBe(404);
  });

  it("answers bad input with 4xx, another organization's price with 404, a duplicate with 409", async () => {
    const bad = await call(postModelPrice, { apiKey: a.apiKey, body: { modelPattern: "", inputPerMtok: -1, outputPerMtok: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "validation_failed" });
    const p = ZPriceResponse.parse((await call(postModelPrice, { apiKey: a.apiKey, body: { modelPattern: "dup-model", inputPerMtok: 1, outputPerMtok: 1 } })).body).price;
    expect((await call(postModelPrice, { apiKey: a.apiKey, body: { modelPattern: "DUP-model", inputPerMtok: 2, outputPerMtok: 1 } })).status).toBe(409);
    expect((await call(postModelPrice, { apiKey: b.apiKey, body: { id: p.id, modelPattern: "x", inputPerMtok: 1, outputPerMtok: 1 } })).status).toBe(404);
    expect((await call(getModelPriceVersions, { apiKey: b.apiKey, params: { id: p.id } })).status).toBe(404);
    expect((await call(deleteModelPrice, { apiKey: b.apiKey, method: "DELETE", params: { id: p.id } })).status).toBe(404);
    expect((await call(postRecompute, { apiKey: a.apiKey, body: { from: range.to, to: range.from } })).status).toBe(400);
    expect((await call(listUnpricedSpans, { apiKey: a.apiKey, path: "/?from=yesterday" })).status).toBe(400);
  });
});
