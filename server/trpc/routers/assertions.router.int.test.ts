// Console assertion procedures: add, edit, archive and the recent list, over the same
// service as the REST endpoints; another organization's trace and assertion ids → NOT_FOUND.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { signedInCaller } from "../testing.ts";
import { getAssertions } from "../../assertions/assertions.http.ts";

describe("console assertion procedures", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  let theirCaller: Awaited<ReturnType<typeof signedInCaller>>;
  const ids = { trace: "", second: "", replay: "", theirTrace: "" };

  beforeAll(async () => {
    org = await createTestOrg(db(), "Ours");
    other = await createTestOrg(db(), "Theirs");
    caller = await signedInCaller(db(), org.email);
    theirCaller = await signedInCaller(db(), other.email);
    const t0 = new Date("2026-11-20T10:00:00Z");
    ids.trace = (await createTrace(db(), org.organizationId, { traceFunctionKey: "answer", name: "refund", startedAt: t0 })).id;
    ids.second = (await createTrace(db(), org.organizationId, { traceFunctionKey: "summarize", name: "summary" })).id;
    ids.replay = (await createTrace(db(), org.organizationId, { traceFunctionKey: "answer", testRunId: crypto.randomUUID(), originalTraceId: ids.trace })).id;
    ids.theirTrace = (await createTrace(db(), other.organizationId, { traceFunctionKey: "answer" })).id;
    const root = await createSpan(db(), org.organizationId, ids.trace, { name: "answer", startedAt: t0 });
    for (const ms of [100, 200]) {
      await createSpan(db(), org.organizationId, ids.trace, { name: "llm", parentSpanId: root.id, startedAt: new Date(t0.getTime() + ms) });
    }
  });

  it("adds an assertion with a span target that the REST read returns, authored by the user as human", async () => {
    const saved = await caller.assertions.save({
      traceId: ids.trace,
      assertion: { assertion: "the second model call cites the policy", targetOnEvaluatedTrace: { kind: "span", name: "llm", occurrence: 1 }, check: { op: "contains", value: "policy" } },
    });
    expect(saved).toMatchObject({ source: "human", author: { email: org.email }, targetOnEvaluatedTrace: { kind: "span", name: "llm", occurrence: 1 } });
    const rest = await call(getAssertions, { apiKey: org.apiKey, params: { traceId: ids.trace } });
    expect(rest.body.assertions.map((a: { id: string }) => a.id)).toEqual([saved.id]);
    const forTrace = await caller.assertions.forTrace({ traceId: ids.trace });
    expect(forTrace.spanNames).toEqual([{ name: "answer", count: 1 }, { name: "llm", count: 2 }]);
  });

  it("edits keeping omitted fields, lists recent assertions per trace function, and archives", async () => {
    const a = await caller.assertions.save({ traceId: ids.second, assertion: { assertion: "short", passCriteria: "under 50 words" } });
    const edited = await caller.assertions.save({ traceId: ids.second, assertion: { id: a.id, assertion: "short summary", targetOnEvaluatedTrace: { kind: "output" } } });
    expect(edited).toMatchObject({ id: a.id, assertion: "short summary", passCriteria: "under 50 words", targetOnEvaluatedTrace: { kind: "output" } });
    const recent = await caller.assertions.recent({});
    expect(recent.assertions.map((r) => [r.assertion, r.trace.traceFunctionKey])).toEqual([["short summary", "summarize"], ["the second model call cites the policy", "answer"]]);
    const answerOnly = await caller.assertions.recent({ traceFunctionKey: "answer" });
    expect(answerOnly.assertions.map((r) => r.trace.id)).toEqual([ids.trace]);
    const paged = await caller.assertions.recent({ limit: 1 });
    expect(paged.assertions).toHaveLength(1);
    const rest = await caller.assertions.recent({ limit: 1, cursor: paged.nextCursor! });
    expect(rest.assertions.map((r) => r.trace.id)).toEqual([ids.trace]);
    expect(rest.nextCursor).toBeNull();

    await expect(caller.assertions.archive({ traceId: ids.second, assertionIds: [a.id] })).resolves.toEqual({ archived: [a.id] });
    expect((await caller.assertions.forTrace({ traceId: ids.second })).assertions).toEqual([]);
    expect((await caller.assertions.recent({})).assertions.map((r) => r.id)).not.toContain(a.id);
  });

  it("shows a replay its original's assertions as inherited, but edits them only through the original", async () => {
    const { assertions, inheritedFrom } = await caller.assertions.forTrace({ traceId: ids.replay });
    expect(inheritedFrom).toBe(ids.trace);
    await expect(caller.assertions.save({ traceId: ids.replay, assertion: { id: assertions[0]!.id, assertion: "hijack" } }))
      .rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("answers NOT_FOUND for another organization's traces and assertions, and writes nothing", async () => {
    const ours = (await caller.assertions.forTrace({ traceId: ids.trace })).assertions[0]!;
    await expect(theirCaller.assertions.forTrace({ traceId: ids.trace })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.assertions.save({ traceId: ids.trace, assertion: { assertion: "planted" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.assertions.save({ traceId: ids.theirTrace, assertion: { id: ours.id, assertion: "stolen" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.assertions.archive({ traceId: ids.trace, assertionIds: [ours.id] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.assertions.archive({ traceId: ids.theirTrace, assertionIds: [ours.id] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await theirCaller.assertions.recent({})).assertions).toEqual([]);
    const after = (await caller.assertions.forTrace({ traceId: ids.trace })).assertions[0]!;
    expect(after).toMatchObject({ id: ours.id, assertion: ours.assertion, updatedAt: ours.updatedAt });
    expect(await db().prisma.assertion.count({ where: { traceId: ids.theirTrace } })).toBe(0);
  });

  it("rejects malformed input with BAD_REQUEST and writes nothing", async () => {
    await expect(caller.assertions.save({ traceId: ids.trace, assertion: {} })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.assertions.save({ traceId: ids.trace, assertion: { assertion: "x", check: { op: "matches", value: "(" } } }))
      .rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.assertions.save({ traceId: "nope", assertion: { assertion: "x" } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.assertions.recent({ cursor: "garbage" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await caller.assertions.forTrace({ traceId: ids.trace })).assertions).toHaveLength(1);
  });
});
