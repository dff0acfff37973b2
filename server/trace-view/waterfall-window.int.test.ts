// The trace page's waterfall read a window at a time (docs/api/console.md, "Trace page"): on a trace of
// 5,001 spans made by SQL, the windows cover every span once in tree order with the subtree sizes collapsing
// needs, the search names the ancestors to expand, and another organization's trace is NOT_FOUND; an agent's
// get_traces reads its first 2,000 spans and says so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { postExternalSpan } from "../ingest/ingest.http.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import { sql } from "../db/sql.ts";
import { getTrace } from "../traces/traces.service.ts";
import { fromJsonText } from "../trpc/json-text.ts";
import { signedInCaller } from "../trpc/testing.ts";
import { callTool, connectClient, serveMcp } from "../mcp/testing/mcp-client.ts";
import type { ServedRoutes } from "../../test/http-server.ts";

const TURNS = 50;
const TOOLS = 99;

describe("the waterfall's windows", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  let traceId = "";
  let rootId = "";
  /** The tree order: the root, then each turn (in start order) followed by its tools (latest j first: they start earliest). */
  const expected: Array<{ name: string; depth: number; descendants: number }> = [];
  let served: ServedRoutes | undefined;
  afterAll(async () => {
    await served?.close();
  });

  beforeAll(async () => {
    org = await createTestOrg(db(), "Big");
    caller = await signedInCaller(db(), org.email);
    const t0 = new Date("2026-11-22T10:00:00Z");
    traceId = (await createTrace(db(), org.organizationId, { traceFunctionKey: "loop", name: "agent loop", startedAt: t0 })).id;
    rootId = (await createSpan(db(), org.organizationId, traceId, { name: "loop", startedAt: t0, endedAt: new Date(t0.getTime() + TURNS * 1000 + 1000) })).id;
    // Turns are inserted last-first and their tools start in the reverse of their numbering, so neither
    // insertion nor name order is the tree's.
    await db().sql.query(sql`
      INSERT INTO spans (organization_id, id, trace_id, parent_span_id, source_span_id, source_trace_id, payload_type, name, type, raw_span, started_at, ended_at)
      SELECT ${org.organizationId}::uuid, md5(${traceId} || 'turn' || t)::uuid, ${traceId}::uuid, ${rootId}::uuid, md5(${traceId} || 'turn' || t), ${traceId},
        'sdk-function', 'turn-' || t, 'function', json_build_object('span_data', json_build_object('name', 'turn-' || t)),
        ${t0}::timestamptz + t * interval '1 second', ${t0}::timestamptz + t * interval '1 second' + interval '500 ms'
      FROM generate_series(${TURNS}, 1, -1) t`);
    await db().sql.query(sql`
      INSERT INTO spans (organization_id, id, trace_id, parent_span_id, source_span_id, source_trace_id, payload_type, name, type, raw_span, started_at, ended_at)
      SELECT ${org.organizationId}::uuid, md5(${traceId} || 'tool' || t || '-' || j)::uuid, ${traceId}::uuid, md5(${traceId} || 'turn' || t)::uuid,
        md5(${traceId} || 'tool' || t || '-' || j), ${traceId}, 'sdk-function', 'tool-' || t || '-' || j, 'tool',
        json_build_object('span_data', json_build_object('name', 'tool-' || t || '-' || j, 'input', repeat('x', 2000))),
        ${t0}::timestamptz + t * interval '1 second' + (${TOOLS + 1} - j) * interval '1 ms',
        ${t0}::timestamptz + t * interval '1 second' + (${TOOLS + 1} - j) * interval '1 ms' + interval '1 ms'
      FROM generate_series(1, ${TURNS}) t, generate_series(1, ${TOOLS}) j`);
    expected.push({ name: "loop", depth: 0, descendants: TURNS * (TOOLS + 1) });
    for (let t = 1; t <= TURNS; t++) {
      expected.push({ name: `turn-${t}`, depth: 1, descendants: TOOLS });
      for (let j = TOOLS; j >= 1; j--) expected.push({ name: `tool-${t}-${j}`, depth: 2, descendants: 0 });
    }
  });

  it("covers every span exactly once, in tree order, window after window", async () => {
    const seen: Array<{ name: string; depth: number; descendants: number; index: number }> = [];
    for (let offset = 0; ; offset += 700) {
      const window = await caller.traces.waterfall({ traceId, offset, limit: 700 });
      expect(window.total).toBe(expected.length);
      const spans = fromJsonText(window.spans);
      if (spans.length === 0) break;
      seen.push(...spans.map((s) => ({ name: s.name, depth: s.depth, descendants: s.descendants, index: s.index })));
    }
    expect(seen).toEqual(expected.map((e, index) => ({ ...e, index })));
    expect(new Set(seen.map((s) => s.name)).size).toBe(expected.length);
  });

  it("sends the first window with the trace, and subtree sizes that skip a collapsed turn exactly", async () => {
    const { waterfall, trace } = await caller.traces.get({ id: traceId });
    expect(trace.spanCount).toBe(expected.length);
    expect(waterfall.total).toBe(expected.length);
    expect(waterfall.totalMs).toBe(TURNS * 1000 + 1000);
    const first = fromJsonText(waterfall.spans);
    expect(first).toHaveLength(500);
    const turn = first.find((s) => s.name === "turn-3")!;
    expect(turn).toMatchObject({ childCount: TOOLS, descendants: TOOLS, offsetMs: 3000, durationMs: 500 });
    // Collapsed, turn-3's rows are skipped: the next row shown is the one just past its subtree, read without its tools.
    const next = fromJsonText((await caller.traces.waterfall({ traceId, offset: turn.index + turn.descendants + 1, limit: 1 })).spans);
    expect(next.map((s) => s.name)).toEqual(["turn-4"]);
  });

  it("searches span names on the server and names each match's ancestors, in tree order", async () => {
    const one = await caller.traces.searchSpans({ traceId, text: "TOOL-7-5" });
    expect(one.more).toBe(false);
    expect(one.matches.map((m) => m.name)).toEqual(["tool-7-59", "tool-7-58", "tool-7-57", "tool-7-56", "tool-7-55", "tool-7-54", "tool-7-53", "tool-7-52", "tool-7-51", "tool-7-50", "tool-7-5"]);
    const match = one.matches.at(-1)!;
    expect(match).toMatchObject({ depth: 2, index: expected.findIndex((e) => e.name === "tool-7-5") });
    const turn = fromJsonText((await caller.traces.waterfall({ traceId, offset: match.index - (TOOLS - 5) - 1, limit: 1 })).spans)[0]!;
    expect(turn.name).toBe("turn-7");
    const root = fromJsonText((await caller.traces.waterfall({ traceId, limit: 1 })).spans)[0]!;
    expect(match.ancestorIds).toEqual([root.id, turn.id]);
    const many = await caller.traces.searchSpans({ traceId, text: "tool-1", limit: 10 });
    expect(many.more).toBe(true);
    expect(many.matches).toHaveLength(10);
    expect(many.matches.map((m) => m.index)).toEqual([...many.matches.map((m) => m.index)].sort((a, b) => a - b));
    // LIKE's wildcards are text here.
    expect((await caller.traces.searchSpans({ traceId, text: "tool_%" })).matches).toEqual([]);
  });

  it("gives an agent's get_traces the first 2,000 spans in start order, saying how many the trace holds", async () => {
    served = await serveMcp();
    const client = await connectClient(served.url, org.apiKey);
    try {
      const r = await callTool(client, "get_traces", { traceIds: [traceId] });
      expect(r.isError).toBe(false);
      expect(r.text).toContain(`Spans (the first 2000 of ${expected.length} in start order, the others not read)`);
      const data = r.data as { traces: Array<{ spanCount: number; spans: unknown[] }> };
      expect(data.traces[0]!.spans).toHaveLength(2000);
      expect(data.traces[0]!.spanCount).toBe(expected.length);
    } finally {
      await client.close();
    }
  });

  it("reads the tree again when a span arrives after it was read", async () => {
    const before = await caller.traces.waterfall({ traceId, offset: 0, limit: 2 });
    // Through the SDK's door, as a late span arrives: the write moves the trace's updated_at, the kept tree's version.
    const late = {
      type: "sdk-function", source: "typescript-sdk-function", sourceTraceId: traceId, traceFunctionKey: "loop", sdkVersion: "0.1.0",
      rawSpan: { id: randomUUID(), trace_id: traceId, parent_id: rootId, started_at: "2026-11-22T10:00:00.500000Z", ended_at: "2026-11-22T10:00:00.600000Z", span_data: { name: "late", type: "function" } },
    };
    expect((await call(postExternalSpan, { apiKey: org.apiKey, body: late })).status).toBe(200);
    const after = await caller.traces.waterfall({ traceId, offset: 0, limit: 2 });
    expect(after.total).toBe(before.total + 1);
    expect(fromJsonText(after.spans).map((s) => s.name)).toEqual(["loop", "late"]);
    // The trace's metrics come with the tree's read, kept with it: read again too.
    const { trace } = await caller.traces.get({ id: traceId });
    expect(trace).toEqual(await getTrace(db(), org.organizationId, traceId));
    expect(trace.spanCount).toBe(expected.length + 1);
  });

  it("answers NOT_FOUND for another organization's trace, and BAD_REQUEST for a window past the cap", async () => {
    const other = await createTestOrg(db(), "Other");
    const theirs = await signedInCaller(db(), other.email);
    await expect(theirs.traces.waterfall({ traceId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirs.traces.searchSpans({ traceId, text: "tool" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.traces.waterfall({ traceId, limit: 5000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.traces.searchSpans({ traceId, text: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
