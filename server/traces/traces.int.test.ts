// GET /api/sdk/traces/{id}, GET /api/sdk/traces and PATCH /api/sdk/traces/{id} against a real database.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import { sql } from "../db/sql.ts";
import { newId } from "../ids.ts";
import { ZTraceListResponse, ZTraceResponse } from "./traces.schemas.ts";
import { getTraceRoute, listTracesRoute, patchTraceRoute } from "./traces.http.ts";

const getOne = (apiKey: string | null, traceId: string) => call(getTraceRoute, { apiKey, params: { traceId } });
const list = (apiKey: string | null, query = "") => call(listTracesRoute, { apiKey, path: `/api/sdk/traces${query}` });
const patch = (apiKey: string | null, traceId: string, body: unknown) =>
  call(patchTraceRoute, { apiKey, method: "PATCH", params: { traceId }, body });

describe("trace reads and updates", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  let b: TestOrg;
  beforeAll(async () => {
    a = await createTestOrg(db(), "A");
    b = await createTestOrg(db(), "B");
  });

  describe("GET /api/sdk/traces/{traceId}", () => {
    it("says whether the trace is a faithful recording: not when a span was trimmed or degraded", async () => {
      const faithful = await createTrace(db(), a.organizationId, { traceFunctionKey: "fn-faithful-read" });
      await createSpan(db(), a.organizationId, faithful.id, { errors: [{ source: "code", error: "a tool failed" }] });
      const trimmed = await createTrace(db(), a.organizationId, { traceFunctionKey: "fn-faithful-read" });
      await createSpan(db(), a.organizationId, trimmed.id, { errors: [{ source: "sdk", step: "payload_budget", error: "trimmed input" }] });
      await createSpan(db(), a.organizationId, trimmed.id, {
        errors: [{ source: "sdk", step: "serialization_degraded", error: "lost a function" }, { source: "sdk", step: "payload_budget", error: "trimmed output" }],
      });
      const one = (id: string) => getOne(a.apiKey, id).then((r) => ZTraceResponse.parse(r.body).trace);
      expect(await one(faithful.id)).toMatchObject({ faithful: true, captureIssues: [] });
      expect(await one(trimmed.id)).toMatchObject({ faithful: false, captureIssues: ["payload_budget", "serialization_degraded"] });
      const page = ZTraceListResponse.parse((await list(a.apiKey, "?traceFunctionKey=fn-faithful-read")).body);
      expect(Object.fromEntries(page.traces.map((t) => [t.id, t.faithful]))).toEqual({ [faithful.id]: true, [trimmed.id]: false });
    });

    it("returns the trace with span count, duration, summed tokens and the most frequent model", async () => {
      const t0 = new Date("2026-11-01T10:00:00.000Z");
      const trace = await createTrace(db(), a.organizationId, {
        name: "Answer",
        startedAt: t0,
        endedAt: new Date(t0.getTime() + 2500),
        metadata: { tenant: "acme" },
        contexts: [{ region: "eu" }],
        sessionId: "s-1",
        expectedSpanCount: 4,
      });
      const at = (ms: number) => new Date(t0.getTime() + ms);
      await createSpan(db(), a.organizationId, trace.id, { startedAt: at(0), model: "m-b", inputTokens: 10, outputTokens: 2, totalTokens: 12 });
      await createSpan(db(), a.organizationId, trace.id, { startedAt: at(10), model: "m-a", inputTokens: 5, outputTokens: 1, cachedTokens: 3, totalTokens: 6 });
      await createSpan(db(), a.organizationId, trace.id, { startedAt: at(20), model: "m-a" });
      await createSpan(db(), a.organizationId, trace.id, { startedAt: at(30), model: "m-b" });
      await createSpan(db(), a.organizationId, trace.id, { startedAt: at(40) });

      const res = await getOne(a.apiKey, trace.id);
      expect(res.status).toBe(200);
      const body = ZTraceResponse.parse(res.body);
      expect(body.trace).toMatchObject({
        id: trace.id,
        name: "Answer",
        traceFunctionKey: "answer-question",
        status: "completed",
        ingestionType: "captured",
        sessionId: "s-1",
        metadata: { tenant: "acme" },
        contexts: [{ region: "eu" }],
        startedAt: t0.toISOString(),
        expectedSpanCount: 4,
        dropped: false,
        spanCount: 5,
        durationMs: 2500,
        tokens: { input: 15, output: 3, cached: 3, total: 18 },
        // m-a and m-b occur twice each; m-b was seen first.
        model: "m-b",
        testRunId: null,
        originalTraceId: null,
      });
    });

    it("reports null tokens and model when no span has token data, and span extent when the trace has no end", async () => {
      const t0 = new Date("2026-11-02T10:00:00.000Z");
      const trace = await createTrace(db(), a.organizationId, { startedAt: null, status: "pending" });
      await createSpan(db(), a.organizationId, trace.id, { startedAt: t0, endedAt: new Date(t0.getTime() + 100) });
      await createSpan(db(), a.organizationId, trace.id, { startedAt: new Date(t0.getTime() + 50), endedAt: new Date(t0.getTime() + 700) });
      const body = ZTraceResponse.parse((await getOne(a.apiKey, trace.id)).body);
      expect(body.trace).toMatchObject({ tokens: null, model: null, spanCount: 2, durationMs: 700, startedAt: null, completedAt: null });
    });

    it("returns a dropped trace with dropped: true", async () => {
      const trace = await createTrace(db(), a.organizationId, { dropped: true });
      const body = ZTraceResponse.parse((await getOne(a.apiKey, trace.id)).body);
      expect(body.trace.dropped).toBe(true);
    });

    it("answers 404 for another organization's trace and for an unknown id, 400 for a malformed id, 401 without key", async () => {
      const trace = await createTrace(db(), a.organizationId);
      expect((await getOne(b.apiKey, trace.id)).status).toBe(404);
      const unknown = await getOne(a.apiKey, newId());
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: "not_found", error: expect.any(String) });
      const bad = await getOne(a.apiKey, "not-a-uuid");
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "validation_failed", issues: [expect.objectContaining({ path: "traceId" })] });
      expect((await getOne(null, trace.id)).status).toBe(401);
    });

    it("accepts an upper-case id", async () => {
      const trace = await createTrace(db(), a.organizationId);
      expect((await getOne(a.apiKey, trace.id.toUpperCase())).status).toBe(200);
    });
  });

  describe("GET /api/sdk/traces", () => {
    let org: TestOrg;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      org = await createTestOrg(db(), "Lister");
      const base = Date.parse("2026-10-01T00:00:00.000Z");
      const mk = async (key: string, minutes: number, o: Parameters<typeof createTrace>[2] = {}) => {
        const t = await createTrace(db(), org.organizationId, { startedAt: new Date(base + minutes * 60_000), ...o });
        ids[key] = t.id;
      };
      await mk("old", 0, { traceFunctionKey: "alpha", name: "Old run" });
      await mk("mid", 10, { traceFunctionKey: "beta", status: "pending", name: "100% Sure" });
      await mk("new", 20, { traceFunctionKey: "alpha", name: null });
      await mk("dropped", 30, { traceFunctionKey: "alpha", dropped: true });
      await mk("nostart", 0, { traceFunctionKey: "alpha", startedAt: null, name: "Pending snapshot" });
      // Same millisecond, different microseconds: JavaScript Dates cannot tell them apart, the cursor must.
      for (const [k, us] of [["us1", "000100"], ["us2", "000900"], ["us3", "000500"]] as const) {
        await mk(k, 5, { traceFunctionKey: "gamma" });
        await db().sql.query(sql`UPDATE traces SET started_at = ${`2026-10-01T00:05:00.${us}Z`}::timestamptz WHERE id = ${ids[k]}::uuid`);
      }
      // Other organization's trace must never show up.
      await createTrace(db(), a.organizationId, { traceFunctionKey: "alpha", startedAt: new Date(base + 25 * 60_000) });
    });

    const idsOf = (body: unknown) => ZTraceListResponse.parse(body).traces.map((t) => t.id);

    it("lists non-dropped traces newest first, without other organizations' traces", async () => {
      const res = await list(org.apiKey);
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual([ids.new, ids.mid, ids.us2, ids.us3, ids.us1, ids.old, ids.nostart]);
      expect(res.body).toMatchObject({ nextCursor: null, hasMore: false });
    });

    it("pages with an opaque cursor, without duplicates or skips", async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(org.apiKey, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(res.status).toBe(200);
        const body = ZTraceListResponse.parse(res.body);
        expect(body.traces.length).toBeLessThanOrEqual(2);
        expect(body.hasMore).toBe(body.nextCursor !== null);
        seen.push(...body.traces.map((t) => t.id));
        cursor = body.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(seen).toEqual([ids.new, ids.mid, ids.us2, ids.us3, ids.us1, ids.old, ids.nostart]);
    });

    it("filters by trace function key, status and title search", async () => {
      expect(idsOf((await list(org.apiKey, "?traceFunctionKey=alpha")).body)).toEqual([ids.new, ids.old, ids.nostart]);
      expect(idsOf((await list(org.apiKey, "?status=pending")).body)).toEqual([ids.mid]);
      // Case-insensitive substring of the name…
      expect(idsOf((await list(org.apiKey, "?search=RUN")).body)).toEqual([ids.old]);
      // …else of the trace function key (the "new" trace has no name).
      expect(idsOf((await list(org.apiKey, "?search=alph")).body)).toEqual([ids.new]);
      // The nameless trace's title is its trace function key, in the list as in a single read.
      const [nameless] = (await list(org.apiKey, "?search=alph")).body.traces;
      expect(nameless.name).toBe("alpha");
      expect((await getOne(org.apiKey, ids.new)).body.trace.name).toBe("alpha");
      // LIKE wildcards are literal.
      expect(idsOf((await list(org.apiKey, `?search=${encodeURIComponent("0%")}`)).body)).toEqual([ids.mid]);
      expect(idsOf((await list(org.apiKey, "?search=_")).body)).toEqual([]);
    });

    it.each([["?limit=0"], ["?limit=101"], ["?limit=abc"], ["?limit="], ["?status=done"], ["?cursor=garbage"], ["?search=%00"]])(
      "answers 400 for %s",
      async (query) => {
        const res = await list(org.apiKey, query);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: "validation_failed", issues: expect.any(Array) });
      },
    );

    it("answers 401 without a key", async () => {
      expect((await list(null)).status).toBe(401);
    });
  });

  describe("PATCH /api/sdk/traces/{traceId}", () => {
    it("appends contexts, shallow-merges metadata, replaces session id and name", async () => {
      const trace = await createTrace(db(), a.organizationId, { metadata: { keep: 1, replace: "old", nested: { a: 1 } }, contexts: [{ first: true }] });
      expect((await patch(a.apiKey, trace.id, { appendContexts: [{ second: 2 }, { third: 3 }] })).status).toBe(200);
      expect((await patch(a.apiKey, trace.id, { mergeMetadata: { replace: "new", nested: { b: 2 }, added: true } })).status).toBe(200);
      expect((await patch(a.apiKey, trace.id, { setSessionId: "sess-9" })).status).toBe(200);
      const res = await patch(a.apiKey, trace.id, { setName: "Renamed" });
      expect(res.status).toBe(200);
      const { trace: out } = ZTraceResponse.parse(res.body);
      expect(out).toMatchObject({
        id: trace.id,
        name: "Renamed",
        sessionId: "sess-9",
        contexts: [{ first: true }, { second: 2 }, { third: 3 }],
        metadata: { keep: 1, replace: "new", nested: { b: 2 }, added: true },
      });
      expect(ZTraceResponse.parse((await getOne(a.apiKey, trace.id)).body).trace).toEqual(out);
    });

    it("loses nothing when patches race", async () => {
      const trace = await createTrace(db(), a.organizationId);
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => patch(a.apiKey, trace.id, { mergeMetadata: { [`k${i}`]: i }, appendContexts: [{ i }] })),
      );
      const { trace: out } = ZTraceResponse.parse((await getOne(a.apiKey, trace.id)).body);
      expect(Object.keys(out.metadata).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`).sort());
      expect(out.contexts).toHaveLength(10);
    });

    it("stores __proto__ as an ordinary key and NUL characters as U+FFFD", async () => {
      const trace = await createTrace(db(), a.organizationId);
      const raw = '{"mergeMetadata":{"__proto__":{"polluted":true},"text":"a\\u0000b","\\u0000k":1,"lone":"\\ud800"}}';
      const res = await call(patchTraceRoute, { apiKey: a.apiKey, method: "PATCH", params: { traceId: trace.id }, body: raw });
      expect(res.status).toBe(200);
      const metadata = ZTraceResponse.parse(res.body).trace.metadata;
      expect(Object.keys(metadata)).toContain("__proto__");
      expect(JSON.stringify(metadata)).toContain('"__proto__":{"polluted":true}');
      expect(metadata.text).toBe("a\uFFFDb");
      expect(metadata["\uFFFDk"]).toBe(1);
      expect(metadata.lone).toBe("\uFFFD");
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const [row] = await db().sql.query<{ v: unknown }>(sql`SELECT metadata -> '__proto__' AS v FROM traces WHERE id = ${trace.id}::uuid`);
      expect(row.v).toEqual({ polluted: true });
    });

    it.each([
      ["an empty body", {}],
      ["an unknown operation only", { setname: "x" }],
      ["contexts that are not objects", { appendContexts: ["x"] }],
      ["metadata that is an array", { mergeMetadata: [1] }],
      ["a non-string name", { setName: 5 }],
      ["a name with NUL", { setName: "a\u0000" }],
    ])("answers 400 for %s and changes nothing", async (_name, body) => {
      const trace = await createTrace(db(), a.organizationId, { name: "Keep" });
      const res = await patch(a.apiKey, trace.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_failed", error: expect.any(String) });
      expect(ZTraceResponse.parse((await getOne(a.apiKey, trace.id)).body).trace.name).toBe("Keep");
    });

    it("answers 404 for another organization's trace and leaves it untouched; 401 without key", async () => {
      const trace = await createTrace(db(), a.organizationId, { name: "Mine" });
      const res = await patch(b.apiKey, trace.id, { setName: "Stolen" });
      expect(res.status).toBe(404);
      expect((await patch(a.apiKey, newId(), { setName: "x" })).status).toBe(404);
      expect((await patch(null, trace.id, { setName: "x" })).status).toBe(401);
      expect(ZTraceResponse.parse((await getOne(a.apiKey, trace.id)).body).trace.name).toBe("Mine");
    });

    it("accepts gzip bodies", async () => {
      const trace = await createTrace(db(), a.organizationId);
      const res = await call(patchTraceRoute, { apiKey: a.apiKey, method: "PATCH", params: { traceId: trace.id }, body: { setName: "Zipped" }, encoding: "gzip" });
      expect(res.status).toBe(200);
      expect(res.body.trace.name).toBe("Zipped");
    });
  });
});
