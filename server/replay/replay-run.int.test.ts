// A replay run end to end on the server side: span tree of the original, the status barrier while replay
// spans arrive slowly, complete (twice) with tokens and outlines, and organization isolation
// (docs/api/replay.md; outlines: docs/replay.md, "Complete"). The last case sends
// the replay through the real ingestion endpoints, as an SDK does (docs/replay.md, "Replay traces").
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace, type SpanOverrides } from "../../test/factories.ts";
import { postExternalSpan, postExternalTrace } from "../ingest/ingest.http.ts";
import { canonicalId, newId } from "../ids.ts";
import { getReplaySpanTree, postReplayComplete, postReplayStart, postReplayStatus } from "./replay.http.ts";
import { ZCompleteResponse, type TCompleteResponse } from "./complete/complete.schemas.ts";
import { ZStatusResponse } from "./status/status.schemas.ts";
import { ZSpanTreeResponse } from "./span-tree/span-tree.schemas.ts";

describe("a replay run", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  const fn = "answer-question";
  const t0 = Date.parse("2026-11-20T10:00:00.000Z");
  const at = (ms: number) => new Date(t0 + ms);
  let original: string;
  let rootId: string;
  let runId: string;

  const span = (traceId: string, o: SpanOverrides) =>
    createSpan(db(), org.organizationId, traceId, { traceFunctionKey: fn, endedAt: new Date((o.startedAt ?? at(0)).getTime() + 100), ...o });

  /**
   * The 3-level trace: root(agent) → plan(llm) and search(function) → fetch(llm); plus a content-off child
   * without error (left out) and one with an error (kept).
   */
  async function threeLevelTrace(traceId: string, base: number) {
    const root = await span(traceId, { name: "root", type: "agent", startedAt: at(base), endedAt: at(base + 1000), output: { answer: 42 } });
    const srch = await span(traceId, { parentSpanId: root.id, name: "search", type: "function", startedAt: at(base + 300), output: ["r1"],
      spanData: { output_serialized: { json: ["r1"], meta: { v: 1, values: { "": ["tuple"] } } } } });
    await span(traceId, { parentSpanId: root.id, name: "plan", type: "llm", startedAt: at(base + 100), model: "gpt-a",
      inputTokens: 10, outputTokens: 2, totalTokens: 12, output: "plan", spanData: { output_meta: { v: 1 } } });
    await span(traceId, { parentSpanId: srch.id, name: "fetch", type: "llm", startedAt: at(base + 400), model: "gpt-b",
      inputTokens: 5, outputTokens: 1, cachedTokens: 3, totalTokens: 6 });
    await span(traceId, { parentSpanId: root.id, name: "secret", startedAt: at(base + 500), contentOff: true });
    await span(traceId, { parentSpanId: root.id, name: "secret-failed", startedAt: at(base + 600), contentOff: true, error: "boom" });
    return root;
  }

  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
    original = (await createTrace(db(), org.organizationId, { traceFunctionKey: fn, startedAt: at(0), endedAt: at(1000) })).id;
    rootId = (await threeLevelTrace(original, 0)).id;
    const res = await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: fn, traceIds: [original] } });
    expect(res.status).toBe(200);
    runId = res.body.testRunId;
  });

  const spanTree = async (id: string, query = "", apiKey = org.apiKey) => {
    const res = await call(getReplaySpanTree, { apiKey, path: `/api/sdk/replay/spanTree/${id}${query}`, params: { externalSpanId: id } });
    return { status: res.status, body: res.status === 200 ? ZSpanTreeResponse.parse(res.body) : res.body };
  };
  const status = async (body: unknown, apiKey = org.apiKey) => {
    const res = await call(postReplayStatus, { apiKey, body });
    return { status: res.status, body: res.status === 200 ? ZStatusResponse.parse(res.body) : res.body };
  };
  const complete = async (body: unknown, apiKey = org.apiKey) => {
    const res = await call(postReplayComplete, { apiKey, body });
    return { status: res.status, body: res.status === 200 ? ZCompleteResponse.parse(res.body) : res.body };
  };

  it("span tree: children in start order with outputs; content-off spans left out unless they errored", async () => {
    const res = await spanTree(rootId);
    expect(res.status).toBe(200);
    const root = res.body.root;
    expect(root).toMatchObject({ externalSpanId: rootId, sourceSpanId: rootId, spanName: "root", type: "agent", traceFunctionKey: fn, output: { answer: 42 } });
    expect(root.children.map((c: { spanName: string }) => c.spanName)).toEqual(["plan", "search", "secret-failed"]);
    expect(root.children[0]).toMatchObject({ output: "plan", outputMeta: { v: 1 } });
    expect(root.children[1]).toMatchObject({ output: ["r1"], outputSerialized: { json: ["r1"], meta: { v: 1, values: { "": ["tuple"] } } } });
    expect(root).not.toHaveProperty("outputSerialized");
    expect(root.children[1].children.map((c: { spanName: string }) => c.spanName)).toEqual(["fetch"]);
  });

  it("span tree: includeOutputs=false drops every output, includeRootOutput=false only the root's; bad flags are 400", async () => {
    const none = await spanTree(rootId, "?includeOutputs=false");
    expect(JSON.stringify(none.body)).not.toContain('"output');
    const noRoot = await spanTree(rootId, "?includeRootOutput=false");
    expect(noRoot.body.root).not.toHaveProperty("output");
    expect(noRoot.body.root.children[0]).toHaveProperty("output", "plan");
    expect((await spanTree(rootId, "?includeOutputs=maybe")).status).toBe(400);
  });

  it("span tree: a subtree from a child; an SDK span id that is not a UUID finds its span; unknown and foreign are 404", async () => {
    const t = (await createTrace(db(), org.organizationId, { traceFunctionKey: fn })).id;
    const r = await span(t, { name: "r", sourceSpanId: "span_abc", id: canonicalId(org.organizationId, "span_abc") });
    await span(t, { name: "c", parentSpanId: r.id, startedAt: at(5) });
    const bySource = await spanTree("span_abc");
    expect(bySource.status).toBe(200);
    expect(bySource.body.root).toMatchObject({ sourceSpanId: "span_abc", externalSpanId: r.id, children: [{ spanName: "c" }] });
    expect((await spanTree(newId())).status).toBe(404);
    expect((await spanTree(rootId, "", other.apiKey)).status).toBe(404);
  });

  it("status lists a replay trace only once it is final with its expected spans; the older contract lists it at once", async () => {
    const local = newId();
    const replay = await createTrace(db(), org.organizationId, {
      traceFunctionKey: fn, sourceTraceId: local, id: local, status: "pending", testRunId: runId, originalTraceId: original, startedAt: at(10_000), endedAt: null,
    });
    const expectedSpanCounts = { [local]: 6 };
    const listed = async () => (await status({ testRunId: runId, expectedSpanCounts })).body.traceIds;

    const root = await span(replay.id, { name: "root", type: "agent", startedAt: at(10_000), endedAt: at(10_800), testRunId: runId, inputSourceSpanId: rootId });
    expect(await listed()).toEqual({});
    const old = await status({ testRunId: runId });
    expect(old.body).toEqual({ traceIds: { [local]: replay.id }, status: "pending", traceCount: 1 });

    // The completion arrives before the children (they are still in flight): final, but too few spans.
    await db().prisma.trace.update({
      where: { organizationId_id: { organizationId: org.organizationId, id: replay.id } },
      data: { status: "completed", completedAt: new Date(), endedAt: at(10_800), expectedSpanCount: 6 },
    });
    expect(await listed()).toEqual({});
    const srch = await span(replay.id, { parentSpanId: root.id, name: "search", startedAt: at(10_300), testRunId: runId, output: ["r2"] });
    await span(replay.id, { parentSpanId: root.id, name: "plan", type: "llm", startedAt: at(10_100), model: "gpt-a", inputTokens: 20, outputTokens: 4, totalTokens: 24, mocked: true });
    await span(replay.id, { parentSpanId: srch.id, name: "fetch", type: "llm", startedAt: at(10_400), model: "gpt-b", inputTokens: 7, outputTokens: 3, totalTokens: 10 });
    await span(replay.id, { parentSpanId: root.id, name: "secret-failed", startedAt: at(10_600), contentOff: true, error: "boom" });
    // A start snapshot (not final) does not count.
    await span(replay.id, { parentSpanId: root.id, name: "late", startedAt: at(10_700), isFinal: false });
    expect(await listed()).toEqual({});
    await span(replay.id, { parentSpanId: root.id, name: "secret", startedAt: at(10_500), contentOff: true });
    expect(await listed()).toEqual({ [local]: replay.id });
    // Both id namings name the run.
    expect((await status({ experimentId: runId, expectedSpanCounts })).body.traceIds).toEqual({ [local]: replay.id });
  });

  it("complete: tokens, outlines of replay and original (tree, durations, tokens, models), and the same answer twice", async () => {
    const first = await complete({ testRunId: runId, experimentId: runId });
    expect(first.status).toBe(200);
    const body = first.body as TCompleteResponse;
    const [local, serverId] = Object.entries(body.traceIds)[0] as [string, string];
    expect(local).toBe(serverId);
    expect(body.traceCount).toBe(1);
    // Token totals are the sums of the llm spans: plan 20+4 and fetch 7+3.
    expect(body.tokens[serverId]).toEqual({ input: 27, output: 7, cached: 0, total: 34 });

    const outline = body.traceOutlines[serverId];
    expect(outline).toMatchObject({ traceId: serverId, status: "completed", traceFunctionKey: fn, durationMs: 800, spanCount: 7 });
    const root = outline.spans[0];
    expect(outline.spans).toHaveLength(1);
    expect(root).toMatchObject({ name: "root", type: "agent", durationMs: 800, tokens: null, model: null, errors: null, mocked: false });
    expect(root.children.map((c) => c.name)).toEqual(["plan", "search", "secret-failed", "late"]);
    expect(root.children[0]).toMatchObject({ type: "llm", model: "gpt-a", tokens: { input: 20, output: 4, cached: 0, total: 24 }, mocked: true, durationMs: 100 });
    expect(root.children[1].children[0]).toMatchObject({ name: "fetch", model: "gpt-b", tokens: { input: 7, output: 3, cached: 0, total: 10 } });
    expect(root.children[2].errors).toEqual([{ source: "code", error: "boom" }]);

    const orig = body.originalTraceOutlines[original];
    expect(orig).toMatchObject({ traceId: original, durationMs: 1000, spanCount: 6 });
    expect(orig.spans[0].spanId).toBe(rootId);
    expect(orig.spans[0].children.map((c) => c.name)).toEqual(["plan", "search", "secret-failed"]);
    expect(orig.spans[0].children[1].children[0]).toMatchObject({ name: "fetch", tokens: { input: 5, output: 1, cached: 3, total: 6 } });

    const row = await db().prisma.experiment.findFirstOrThrow({ where: { id: runId } });
    expect(row.status).toBe("completed");
    expect(row.completedAt).not.toBeNull();

    const second = await complete({ testRunId: runId });
    expect(second.body).toEqual(body);
    const again = await db().prisma.experiment.findFirstOrThrow({ where: { id: runId } });
    expect(again.completedAt).toEqual(row.completedAt);
    expect((await status({ testRunId: runId })).body.status).toBe("completed");
  });

  it("a replay trace without token data maps to null", async () => {
    const run = (await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: fn, traceIds: [original] } })).body.testRunId;
    const replay = await createTrace(db(), org.organizationId, { traceFunctionKey: fn, testRunId: run, originalTraceId: original });
    await span(replay.id, { name: "root" });
    const res = await complete({ experimentId: run });
    expect(res.body.tokens).toEqual({ [replay.id]: null });
  });

  it("status and complete: another organization's run or an unknown one is 404; a bad identity is 400", async () => {
    expect((await status({ testRunId: runId }, other.apiKey)).status).toBe(404);
    expect((await complete({ testRunId: runId }, other.apiKey)).status).toBe(404);
    expect((await status({ testRunId: newId() })).status).toBe(404);
    expect((await complete({ experimentId: newId() })).status).toBe(404);
    expect((await status({})).status).toBe(400);
    expect((await complete({ testRunId: runId, experimentId: newId() })).status).toBe(400);
    expect((await status({ testRunId: runId, expectedSpanCounts: { a: -1 } })).status).toBe(400);
    const row = await db().prisma.experiment.findFirstOrThrow({ where: { id: runId } });
    expect(row.status).toBe("completed");
  });

  const iso = (ms: number) => new Date(Date.parse("2026-11-22T09:00:00.000Z") + ms).toISOString();

  /** A span payload as the TypeScript SDK sends it inside a replay (docs/sdk-transport.md, "Payloads"). */
  function spanPayload(runId: string, local: string, o: { id: string; parent?: string; name: string; type: string; start: number; end: number; output?: unknown; contexts?: object[]; mocked?: boolean }) {
    return {
      type: "sdk-function", source: "typescript-sdk-function", sdkVersion: "1.0.0", traceFunctionKey: fn,
      sourceTraceId: local, testRunId: runId, experimentId: runId, ...(o.mocked ? { mocked: true, mockTarget: "output", mockSource: "recorded" } : {}),
      rawSpan: {
        id: o.id, trace_id: local, ...(o.parent ? { parent_id: o.parent } : {}), started_at: iso(o.start), ended_at: iso(o.end),
        input_source_span_id: rootId,
        span_data: { name: o.name, type: o.type, input: ["q"], output: o.output ?? null, ...(o.contexts ? { contexts: o.contexts } : {}) },
      },
    };
  }

  it("through the real ingestion endpoints: status waits for the expected spans; complete outlines tokens, models and mocked spans", async () => {
    const runId = (await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: fn, traceIds: [original] } })).body.testRunId;
    const local = newId();
    const send = async (handler: typeof postExternalSpan, body: unknown) => {
      const r = await call(handler, { apiKey: org.apiKey, body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    const listed = async () => (await call(postReplayStatus, { apiKey: org.apiKey, body: { testRunId: runId, expectedSpanCounts: { [local]: 3 } } })).body.traceIds;

    const rootId = newId();
    await send(postExternalSpan, spanPayload(runId, local, { id: rootId, name: "answer", type: "agent", start: 0, end: 900, output: "4" }));
    expect(await listed()).toEqual({});
    await send(postExternalTrace, {
      id: local, type: "sdk-function", source: "typescript-sdk-function", sdkVersion: "1.0.0", traceFunctionKey: fn, completed: true,
      expectedSpanCount: 3, testRunId: runId, experimentId: runId,
      externalTrace: { id: local, started_at: iso(0), ended_at: iso(900), input_source_trace_id: original, replay_attempt: 0 },
    });
    expect(await listed()).toEqual({});
    await send(postExternalSpan, spanPayload(runId, local, {
      id: "toolu_search", parent: rootId, name: "search", type: "function", start: 100, end: 300, output: ["r"], mocked: true,
    }));
    expect(await listed()).toEqual({});
    await send(postExternalSpan, spanPayload(runId, local, {
      id: newId(), parent: rootId, name: "llm", type: "llm", start: 400, end: 800, output: "4",
      contexts: [{ model: "gpt-z", inputTokens: 30, outputTokens: 6 }],
    }));
    expect(await listed()).toEqual({ [local]: local });

    const res = await call(postReplayComplete, { apiKey: org.apiKey, body: { testRunId: runId } });
    expect(res.status).toBe(200);
    const body = ZCompleteResponse.parse(res.body);
    expect(body.traceIds).toEqual({ [local]: local });
    expect(body.tokens[local]).toEqual({ input: 30, output: 6, cached: 0, total: 36 });
    const outline = body.traceOutlines[local];
    expect(outline).toMatchObject({ status: "completed", durationMs: 900, spanCount: 3 });
    expect(outline.spans[0]).toMatchObject({ spanId: rootId, name: "answer", durationMs: 900 });
    expect(outline.spans[0].children).toMatchObject([
      { spanId: "toolu_search", name: "search", mocked: true, durationMs: 200, tokens: null },
      { name: "llm", model: "gpt-z", mocked: false, tokens: { input: 30, output: 6, cached: 0, total: 36 } },
    ]);
    const replay = await db().prisma.trace.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.organizationId, id: canonicalId(org.organizationId, local) } } });
    expect(replay).toMatchObject({ testRunId: runId, originalTraceId: original, replayAttempt: 0 });
  });
});
