// The console's labelling queue and list reads: the queue holds every matching trace (not one page), the
// list counts and previews, search reaches session ids and root content, verdicts show who and when, and
// undo restores exactly the verdict it replaced (and nothing of another organization or user).
import { beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, onPostgres, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { resetEnvCache } from "../../env.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { signedInCaller } from "../testing.ts";

describe("console labelling procedures", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  let theirCaller: Awaited<ReturnType<typeof signedInCaller>>;
  const ids: string[] = [];

  beforeAll(async () => {
    org = await createTestOrg(db(), "Ours");
    const other = await createTestOrg(db(), "Theirs");
    caller = await signedInCaller(db(), org.email);
    theirCaller = await signedInCaller(db(), other.email);
    const t0 = Date.parse("2026-11-20T10:00:00Z");
    // 30 traces of "answer" (more than one 25-row page), newest last; one summarize trace.
    for (let i = 0; i < 30; i++) {
      const startedAt = new Date(t0 + i * 1000);
      const t = await createTrace(db(), org.organizationId, { traceFunctionKey: "answer", startedAt, sessionId: i === 3 ? "sess-abc-42" : null });
      await createSpan(db(), org.organizationId, t.id, { name: "answer", startedAt, input: [`question ${i}`], output: i === 7 ? { text: "the zebra refund" } : `answer ${i}` });
      ids.unshift(t.id);
    }
    await createTrace(db(), org.organizationId, { traceFunctionKey: "summarize", startedAt: new Date(t0) });
  });

  it("queues every matching trace in list order, counts them and previews the root input and output", async () => {
    const queue = await caller.traces.queue({ traceFunctionKey: "answer" });
    expect(queue).toEqual({ ids, truncated: false });
    const page = await caller.traces.list({ traceFunctionKey: "answer" });
    expect(page.total).toBe(30);
    expect(page.traces.map((t) => t.id)).toEqual(ids.slice(0, 25));
    expect(page.traces[0]!.preview).toEqual({ input: '["question 29"]', output: "answer 29" });
    expect((await theirCaller.traces.queue({})).ids).toEqual([]);
  });

  it("searches titles, session ids and root content, %/_ literal", async () => {
    const bySession = await caller.traces.list({ search: "ABC-4" });
    expect(bySession.traces.map((t) => t.id)).toEqual([ids[29 - 3]]);
    expect((await caller.traces.queue({ search: "zebra" })).ids).toEqual([ids[29 - 7]]);
    expect((await caller.traces.list({ search: "summ" })).total).toBe(1);
    expect((await caller.traces.list({ search: "100%" })).total).toBe(0);
    // The session link filters by the exact session id.
    expect((await caller.traces.list({ sessionId: "sess-abc-42" })).traces.map((t) => t.id)).toEqual([ids[29 - 3]]);
    expect((await caller.traces.queue({ sessionId: "sess-abc" })).ids).toEqual([]);
  });

  // PGlite cannot interrupt a statement (statement_timeout is ignored there): the bound holds on PostgreSQL.
  it.runIf(onPostgres)("answers BAD_REQUEST asking for a narrower filter when a content search outruns its time limit", async () => {
    // About 11 MB of root content to scan: far longer than the 1 ms limit set below.
    const big = "lorem ipsum dolor sit amet ".repeat(40_000);
    for (let i = 0; i < 10; i++) {
      const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: "long-reads" });
      await createSpan(db(), org.organizationId, trace.id, { name: "read", input: [big] });
    }
    process.env.REPRISE_CONTENT_SEARCH_TIMEOUT_MS = "1";
    resetEnvCache();
    try {
      for (const read of [() => caller.traces.list({ search: "no such needle" }), () => caller.traces.queue({ search: "no such needle" })]) {
        await expect(read()).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/took longer than 1 ms; narrow it/) });
      }
    } finally {
      delete process.env.REPRISE_CONTENT_SEARCH_TIMEOUT_MS;
      resetEnvCache();
    }
    // The same search within the default limit answers (and finds nothing).
    expect((await caller.traces.list({ search: "no such needle" })).total).toBe(0);
  });

  it("records who labelled and when, undoes the last verdict back to the one it replaced, and refuses stale undos", async () => {
    const traceId = ids[0]!;
    const first = await caller.labels.saveHuman({ traceId, label: true, annotation: "ok" });
    const second = await caller.labels.saveHuman({ traceId, label: false });
    expect(first.id).not.toBe(second.id);
    const got = await caller.traces.get({ id: traceId });
    expect(got.verdict).toMatchObject({ label: false });
    expect(got.verdictRecords).toEqual([expect.objectContaining({ id: second.id, assertionId: null, labelSource: "human", recordedBy: expect.any(String) })]);
    expect(Date.parse(got.verdictRecords[0]!.recordedAt)).toBeGreaterThan(Date.now() - 60_000);

    await expect(theirCaller.labels.undo({ id: second.id! })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.labels.undo({ id: first.id! })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await caller.labels.undo({ id: second.id! })).toEqual({ traceId, assertionId: null, restoredId: first.id });
    expect((await caller.traces.get({ id: traceId })).verdict).toMatchObject({ label: true, annotation: "ok" });
    await caller.labels.undo({ id: first.id! });
    expect((await caller.traces.get({ id: traceId })).verdict).toMatchObject({ labelStatus: "unlabeled" });
    expect((await caller.traces.queue({ traceFunctionKey: "answer", labelState: "unlabeled" })).ids).toHaveLength(30);
  });
});
