// Console Replays procedures: experiments newest first with counts, and one experiment's
// items with original and replay outlines side by side, deltas, assertion verdicts and grader labels. The
// run is started and completed through the real REST handlers and evaluated by the job worker; other
// organizations' ids → NOT_FOUND.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { startWorkers, type Workers } from "../../workers.ts";
import { signedInCaller } from "../testing.ts";
import { postReplayComplete, postReplayStart } from "../../replay/replay.http.ts";

/** Polls until `check` holds, failing after the deadline (queued work has no completion signal to await). */
const until = async (check: () => Promise<boolean>, timeoutMs = 30_000) => {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe("console replay procedures", () => {
  const db = useTestDatabase();
  let worker: Workers;
  let org: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  let theirCaller: Awaited<ReturnType<typeof signedInCaller>>;
  const ids = { original: "", unreplayed: "", replay: "", run: "", olderRun: "", grader: "", assertion: "" };
  const t0 = Date.parse("2026-11-21T10:00:00.000Z");

  /** A trace with a root span and one "llm" child carrying tokens. */
  async function traceWith(o: Parameters<typeof createTrace>[2], llm: { ms: number; input: number; output: number; text: string }) {
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: "answer", startedAt: new Date(t0), endedAt: new Date(t0 + llm.ms + 10), ...o });
    const root = await createSpan(db(), org.organizationId, t.id, { name: "answer", startedAt: new Date(t0), endedAt: new Date(t0 + llm.ms + 10), output: llm.text });
    await createSpan(db(), org.organizationId, t.id, {
      name: "llm", parentSpanId: root.id, startedAt: new Date(t0 + 5), endedAt: new Date(t0 + 5 + llm.ms), inputTokens: llm.input, outputTokens: llm.output, totalTokens: llm.input + llm.output,
    });
    return t.id;
  }

  async function startRun(body: object): Promise<string> {
    const res = await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: "answer", ...body } });
    expect(res.status).toBe(200);
    return res.body.testRunId;
  }

  beforeAll(async () => {
    org = await createTestOrg(db(), "Ours");
    const other = await createTestOrg(db(), "Theirs");
    caller = await signedInCaller(db(), org.email);
    theirCaller = await signedInCaller(db(), other.email);
    ids.original = await traceWith({ name: "refund question" }, { ms: 1000, input: 100, output: 20, text: "30 days refund" });
    ids.unreplayed = await traceWith({ name: "never replayed" }, { ms: 50, input: 1, output: 1, text: "x" });
    ids.assertion = (await caller.assertions.save({ traceId: ids.original, assertion: { assertion: "mentions 30 days", targetOnEvaluatedTrace: { kind: "output" }, check: { op: "contains", value: "30 days" } } })).id;
    ids.grader = (await caller.graders.save({ traceFunctionKey: "answer", name: "fast", kind: "rule", config: { target: null, check: { op: "maxDurationMs", value: 500 } } })).grader.id;

    ids.olderRun = await startRun({ traceIds: [ids.original], name: "older run" });
    ids.run = await startRun({ traceIds: [ids.original, ids.unreplayed], graderIds: [ids.grader], name: "prompt v2" });
    ids.replay = await traceWith(
      { name: "refund question", testRunId: ids.run, originalTraceId: ids.original, replayAttempt: 1, sourceTraceId: "local-replay-1" },
      { ms: 400, input: 80, output: 10, text: "refunds within 30 days" },
    );
    worker = await startWorkers(db(), { pollIntervalMs: 100, maintenanceIntervalSeconds: 1 });
    expect((await call(postReplayComplete, { apiKey: org.apiKey, body: { experimentId: ids.run } })).status).toBe(200);
    // complete queues the grading and the assertion evaluation; wait for the worker's labels.
    await until(async () => (await db().prisma.graderLabel.count({ where: { traceId: ids.replay } })) === 1);
    await until(async () => (await db().prisma.traceLabel.count({ where: { traceId: ids.replay, labelSource: "judge" } })) === 1);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("lists experiments newest first with status, trace function and counts, paging with a cursor", async () => {
    const { experiments, nextCursor } = await caller.replays.list({});
    expect(experiments.map((e) => e.id)).toEqual([ids.run, ids.olderRun]);
    expect(nextCursor).toBeNull();
    expect(experiments[0]).toMatchObject({
      name: "prompt v2", status: "completed", traceFunctionKey: "answer", graderIds: [ids.grader],
      counts: { items: 2, planned: 2, replays: 1, completedReplays: 1 },
    });
    expect(experiments[1]).toMatchObject({ status: "pending", counts: { items: 1, replays: 0 } });
    const first = await caller.replays.list({ limit: 1 });
    expect(first.experiments.map((e) => e.id)).toEqual([ids.run]);
    const second = await caller.replays.list({ limit: 1, cursor: first.nextCursor! });
    expect(second).toMatchObject({ experiments: [{ id: ids.olderRun }], nextCursor: null });
  });

  it("compares each item's original with its replay: outlines, deltas, assertion verdicts and grader labels", async () => {
    const { experiment, items, nextCursor, outputs, previews } = await caller.replays.get({ id: ids.run });
    expect(experiment.id).toBe(ids.run);
    // Each original's root preview, so the items of one trace function can be told apart.
    expect(Object.keys(previews).sort()).toEqual([ids.original, ids.unreplayed].sort());
    expect(previews[ids.original]).toMatchObject({ output: "30 days refund" });
    // Each compared trace's root output, for the side-by-side diff.
    expect(outputs).toEqual({
      [ids.original]: { tooLarge: false, output: "30 days refund" },
      [ids.unreplayed]: { tooLarge: false, output: "x" },
      [ids.replay]: { tooLarge: false, output: "refunds within 30 days" },
    });
    expect(nextCursor).toBeNull();
    expect(items.map((i) => [i.position, i.originalTraceId, i.replays.length])).toEqual([[0, ids.original, 1], [1, ids.unreplayed, 0]]);
    const [item] = items;
    expect(item!.original!.outline.spans.map((s) => [s.name, s.children.map((c) => c.name)])).toEqual([["answer", ["llm"]]]);
    expect(item!.original!.tokens).toMatchObject({ total: 120 });
    const replay = item!.replays[0]!;
    expect(replay).toMatchObject({ traceId: ids.replay, attempt: 1, tokens: { total: 90 }, delta: { durationMs: 410 - 1010, totalTokens: -30 } });
    expect(replay.outline.spans[0]!.children[0]).toMatchObject({ name: "llm", durationMs: 400, tokens: { total: 90 } });
    expect(replay.verdict!.assertions).toEqual([expect.objectContaining({ assertionId: ids.assertion, labelStatus: "labeled", label: true, labelSource: "judge" })]);
    expect(replay.graderLabels).toEqual([expect.objectContaining({ graderId: ids.grader, graderName: "fast", label: true })]);
    expect(item!.original!.graderLabels).toEqual([]);
  });

  it("pages items by position", async () => {
    const first = await caller.replays.get({ id: ids.run, limit: 1 });
    expect(first.items.map((i) => i.position)).toEqual([0]);
    const second = await caller.replays.get({ id: ids.run, limit: 1, cursor: first.nextCursor! });
    expect(second.items.map((i) => i.originalTraceId)).toEqual([ids.unreplayed]);
    expect(second.nextCursor).toBeNull();
  });

  it("answers NOT_FOUND for another organization's experiment and lists none of it", async () => {
    await expect(theirCaller.replays.get({ id: ids.run })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.replays.get({ id: crypto.randomUUID() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await theirCaller.replays.list({})).experiments).toEqual([]);
  });

  it("rejects malformed input with BAD_REQUEST", async () => {
    await expect(caller.replays.get({ id: "not-a-uuid" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.replays.list({ cursor: "garbage" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.replays.list({ limit: 1000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
