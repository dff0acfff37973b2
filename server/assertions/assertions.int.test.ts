// Assertions (docs/api/assertions.md).
import { beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createApiKeyForUser } from "../auth/auth.service.ts";
import { newId } from "../ids.ts";
import { getAssertions, postArchiveAssertions, postAssertions } from "./assertions.http.ts";
import { ZArchiveAssertionsResponse, ZGetAssertionsResponse, ZSaveAssertionsResponse } from "./assertions.schemas.ts";

describe("assertions", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let colleagueKey: string;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
    // A second user of org A, to show that an edit keeps the original author.
    const colleague = await db().prisma.user.create({
      data: { id: newId(), organizationId: org.organizationId, email: `colleague-${newId()}@example.com`, name: "Colleague", passwordHash: "x" },
    });
    colleagueKey = (await createApiKeyForUser(db(), { userId: colleague.id, organizationId: org.organizationId }, { scope: "admin" })).apiKey;
  });

  const save = async (body: unknown, apiKey = org.apiKey) => {
    const res = await call(postAssertions, { apiKey, body, path: "/api/sdk/traces/assertions" });
    return { status: res.status, body: res.status === 200 ? ZSaveAssertionsResponse.parse(res.body) : res.body };
  };
  const read = async (traceId: string, apiKey = org.apiKey) => {
    const res = await call(getAssertions, { apiKey, params: { traceId } });
    return { status: res.status, body: res.status === 200 ? ZGetAssertionsResponse.parse(res.body) : res.body };
  };
  const archive = (traceId: string, assertionIds: unknown, apiKey = org.apiKey) =>
    call(postArchiveAssertions, { apiKey, params: { traceId }, body: { assertionIds } });
  const countAssertions = () => db().prisma.assertion.count();

  it("creates assertions across traces, authored by the key's user, with validated targets and checks", async () => {
    const category = await db().prisma.assertionCategory.create({ data: { id: newId(), organizationId: org.organizationId, title: "Language" } });
    const spanId = newId();
    const t1 = await createTrace(db(), org.organizationId);
    const t2 = await createTrace(db(), org.organizationId);
    const res = await save({
      updates: [
        {
          traceId: t1.id.toUpperCase(),
          assertions: [
            { assertion: "answers in French", passCriteria: "French", targetOnEvaluatedTrace: { kind: "output" } },
            { assertion: "calls search once", targetOnEvaluatedTrace: { kind: "span", name: "search" }, justification: [{ spanId, text: "seen" }] },
          ],
        },
        { traceId: t2.id, assertions: [{ assertion: "no errors", targetOnEvaluatedTrace: null, check: { op: "noErrors" }, category_assertion_id: category.id }] },
      ],
    });
    expect(res.status).toBe(200);
    const [a, b, c] = res.body.assertions;
    expect(a).toMatchObject({ traceId: t1.id, assertion: "answers in French", passCriteria: "French", failCriteria: null, targetOnEvaluatedTrace: { kind: "output" }, source: "agent", approvalState: "approved" });
    expect(a.author).toMatchObject({ id: org.userId, email: org.email });
    expect(b.targetOnEvaluatedTrace).toEqual({ kind: "span", name: "search", occurrence: "last" });
    expect(b.justification).toEqual([{ spanId, text: "seen" }]);
    expect(c).toMatchObject({ traceId: t2.id, targetOnEvaluatedTrace: null, check: { op: "noErrors" }, category_assertion_id: category.id, category: { id: category.id, title: "Language" } });

    const got = await read(t1.id);
    expect(got.body).toEqual({ assertions: [a, b], inheritedFrom: null });
  });

  it("edits by id: omitted fields kept, explicit null clears, source and author kept", async () => {
    const t = await createTrace(db(), org.organizationId);
    const created = await save({
      updates: [{ traceId: t.id, assertions: [{ assertion: "v1", passCriteria: "p", failCriteria: "f", targetOnEvaluatedTrace: { kind: "output" }, check: { op: "contains", value: "x" } }] }],
    });
    const id = created.body.assertions[0].id;
    const edited = await save(
      { source: "human", updates: [{ traceId: t.id, assertions: [{ id, passCriteria: null, targetOnEvaluatedTrace: null, check: { op: "maxDurationMs", value: 500 } }] }] },
      colleagueKey,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.assertions[0]).toMatchObject({
      id,
      assertion: "v1",
      passCriteria: null,
      failCriteria: "f",
      targetOnEvaluatedTrace: null,
      check: { op: "maxDurationMs", value: 500 },
      source: "agent",
      author: { id: org.userId },
    });
    expect(await db().prisma.assertion.count({ where: { traceId: t.id } })).toBe(1);
    // A new assertion by the colleague with source human records them.
    const fresh = await save({ source: "human", updates: [{ traceId: t.id, assertions: [{ assertion: "v2" }] }] }, colleagueKey);
    expect(fresh.body.assertions[0]).toMatchObject({ source: "human", author: { fullName: "Colleague" } });
  });

  it("writes nothing when one entry of the batch is bad", async () => {
    const t = await createTrace(db(), org.organizationId);
    const otherTrace = await createTrace(db(), org.organizationId);
    const foreignTrace = await createTrace(db(), other.organizationId);
    const { body } = await save({ updates: [{ traceId: otherTrace.id, assertions: [{ assertion: "other's" }, { assertion: "to archive" }] }] });
    const [othersAssertion, archived] = body.assertions;
    expect((await archive(otherTrace.id, [archived.id])).status).toBe(200);
    const foreignAssertion = (await save({ updates: [{ traceId: foreignTrace.id, assertions: [{ assertion: "theirs" }] }] }, other.apiKey)).body.assertions[0];
    const before = await countAssertions();
    const good = { traceId: t.id, assertions: [{ assertion: "fine" }] };

    const cases: [number, unknown][] = [
      [404, { updates: [good, { traceId: newId(), assertions: [{ assertion: "unknown trace" }] }] }],
      [404, { updates: [good, { traceId: foreignTrace.id, assertions: [{ assertion: "foreign trace" }] }] }],
      [400, { updates: [good, { traceId: newId(), assertions: [] }] }],
      [400, { updates: [{ traceId: t.id, assertions: [{ assertion: "fine" }, { id: othersAssertion.id, assertion: "steal" }] }] }],
      [400, { updates: [{ traceId: otherTrace.id, assertions: [{ assertion: "fine" }, { id: archived.id, assertion: "revive" }] }] }],
      [400, { updates: [{ traceId: t.id, assertions: [{ assertion: "fine" }, { id: foreignAssertion.id, assertion: "cross-org" }] }] }],
      [400, { updates: [{ traceId: t.id, assertions: [{ assertion: "fine" }, { id: newId(), assertion: "unknown id" }] }] }],
    ];
    for (const [status, request] of cases) {
      const res = await save(request);
      expect(res.status, JSON.stringify(request)).toBe(status);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect(await countAssertions()).toBe(before);
    expect((await db().prisma.assertion.findFirstOrThrow({ where: { id: othersAssertion.id } })).assertion).toBe("other's");
  });

  it.each([
    ["no updates", { updates: [] }],
    ["501 traces", { updates: Array.from({ length: 501 }, () => ({ traceId: newId(), assertions: [{ assertion: "a" }] })) }],
    ["51 assertions on a trace", { updates: [{ traceId: newId(), assertions: Array.from({ length: 51 }, () => ({ assertion: "a" })) }] }],
    ["1001 in total", { updates: Array.from({ length: 21 }, () => ({ traceId: newId(), assertions: Array.from({ length: 48 }, () => ({ assertion: "a" })) })) }],
    ["a new assertion without text", { updates: [{ traceId: newId(), assertions: [{ passCriteria: "p" }] }] }],
    ["a null assertion text", { updates: [{ traceId: newId(), assertions: [{ id: newId(), assertion: null }] }] }],
    ["a trace twice", { updates: [{ traceId: "3f1d7c8e-0000-4000-8000-000000000001", assertions: [{ assertion: "a" }] }, { traceId: "3f1d7c8e-0000-4000-8000-000000000001", assertions: [{ assertion: "b" }] }] }],
    ["a malformed trace id", { updates: [{ traceId: "abc", assertions: [{ assertion: "a" }] }] }],
    ["an unknown target kind", { updates: [{ traceId: newId(), assertions: [{ assertion: "a", targetOnEvaluatedTrace: { kind: "trace" } }] }] }],
    ["a span target without name", { updates: [{ traceId: newId(), assertions: [{ assertion: "a", targetOnEvaluatedTrace: { kind: "span" } }] }] }],
    ["a negative occurrence", { updates: [{ traceId: newId(), assertions: [{ assertion: "a", targetOnEvaluatedTrace: { kind: "span", name: "s", occurrence: -1 } }] }] }],
    ["an invalid regular expression", { updates: [{ traceId: newId(), assertions: [{ assertion: "a", check: { op: "matches", value: "(" } }] }] }],
    ["a non-numeric max", { updates: [{ traceId: newId(), assertions: [{ assertion: "a", check: { op: "maxTotalTokens", value: "10" } }] }] }],
    ["an unknown check op", { updates: [{ traceId: newId(), assertions: [{ assertion: "a", check: { op: "startsWith", value: "x" } }] }] }],
    ["equals without value", { updates: [{ traceId: newId(), assertions: [{ assertion: "a", check: { op: "equals" } }] }] }],
  ])("answers 400 for %s and writes nothing", async (_name, body) => {
    const before = await countAssertions();
    const res = await save(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_failed", issues: expect.any(Array) });
    expect(await countAssertions()).toBe(before);
  });

  it("accepts the limits exactly: 50 on a trace, 1000 in total", async () => {
    const traces = await Promise.all(Array.from({ length: 20 }, () => createTrace(db(), org.organizationId)));
    const res = await save({ updates: traces.map((t) => ({ traceId: t.id, assertions: Array.from({ length: 50 }, (_, i) => ({ assertion: `a${i}` })) })) });
    expect(res.status).toBe(200);
    expect(res.body.assertions.length).toBe(1000);
  });

  it("a replay trace without assertions reads its original's, with inheritedFrom; its own win once written", async () => {
    const original = await createTrace(db(), org.organizationId);
    const replay = await createTrace(db(), org.organizationId, { testRunId: newId(), originalTraceId: original.id, replayAttempt: 0 });
    expect((await read(replay.id)).body).toEqual({ assertions: [], inheritedFrom: null });
    const { body } = await save({ updates: [{ traceId: original.id, assertions: [{ assertion: "inherited" }] }] });
    expect((await read(replay.id)).body).toEqual({ assertions: body.assertions, inheritedFrom: original.id });
    const own = await save({ updates: [{ traceId: replay.id, assertions: [{ assertion: "own" }] }] });
    expect((await read(replay.id)).body).toEqual({ assertions: own.body.assertions, inheritedFrom: null });
  });

  it("archived assertions vanish from reads (and from inheritance) but stay in the table", async () => {
    const original = await createTrace(db(), org.organizationId);
    const replay = await createTrace(db(), org.organizationId, { testRunId: newId(), originalTraceId: original.id });
    const { body } = await save({ updates: [{ traceId: original.id, assertions: [{ assertion: "keep" }, { assertion: "drop" }] }] });
    const [keep, drop] = body.assertions;
    const res = await archive(original.id, [drop.id]);
    expect(res.status).toBe(200);
    expect(ZArchiveAssertionsResponse.parse(res.body)).toEqual({ archived: [drop.id] });
    expect((await read(original.id)).body.assertions.map((a: { id: string }) => a.id)).toEqual([keep.id]);
    expect((await read(replay.id)).body.assertions.map((a: { id: string }) => a.id)).toEqual([keep.id]);
    const row = await db().prisma.assertion.findFirstOrThrow({ where: { id: drop.id } });
    expect(row.archivedAt).not.toBeNull();

    // Archiving again is idempotent and keeps the first archive time.
    expect((await archive(original.id, [drop.id])).body).toEqual({ archived: [drop.id] });
    expect((await db().prisma.assertion.findFirstOrThrow({ where: { id: drop.id } })).archivedAt).toEqual(row.archivedAt);

    // Archiving the last one: the replay no longer inherits anything.
    await archive(original.id, [keep.id]);
    expect((await read(replay.id)).body).toEqual({ assertions: [], inheritedFrom: null });
  });

  it("archive: an id of another trace is a 400 and archives nothing; malformed bodies are 400", async () => {
    const t = await createTrace(db(), org.organizationId);
    const u = await createTrace(db(), org.organizationId);
    const { body } = await save({ updates: [{ traceId: t.id, assertions: [{ assertion: "mine" }] }, { traceId: u.id, assertions: [{ assertion: "not this trace" }] }] });
    const [mine, notHere] = body.assertions;
    const res = await archive(t.id, [mine.id, notHere.id]);
    expect(res.status).toBe(400);
    expect((await read(t.id)).body.assertions.length).toBe(1);
    for (const ids of [[], ["nope"], undefined]) expect((await archive(t.id, ids)).status).toBe(400);
  });

  it("isolates organizations: reads, writes and archives of another organization's trace are 404", async () => {
    const t = await createTrace(db(), org.organizationId);
    const { body } = await save({ updates: [{ traceId: t.id, assertions: [{ assertion: "private" }] }] });
    expect((await read(t.id, other.apiKey)).status).toBe(404);
    expect((await read("not-a-uuid")).status).toBe(404);
    expect((await read(newId())).status).toBe(404);
    expect((await save({ updates: [{ traceId: t.id, assertions: [{ assertion: "x" }] }] }, other.apiKey)).status).toBe(404);
    expect((await archive(t.id, [body.assertions[0].id], other.apiKey)).status).toBe(404);
    expect((await read(t.id)).body.assertions.length).toBe(1);
    expect((await call(getAssertions, { params: { traceId: t.id } })).status).toBe(401);
  });
});
