// Trace labels: agent verdicts, human verdicts and the read (docs/api/labels.md; errors of
// docs/api.md, "Common rules").
import { beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { postArchiveAssertions, postAssertions } from "../assertions/assertions.http.ts";
import { canonicalId, newId } from "../ids.ts";
import { getTraceLabels, postAgentLabels, postHumanLabels } from "./labels.http.ts";
import { ZAgentLabelsResponse, ZHumanLabelsResponse, ZTraceLabelsResponse } from "./labels.schemas.ts";

describe("trace labels", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
  });

  const agent = async (body: unknown, apiKey = org.apiKey) => {
    const res = await call(postAgentLabels, { apiKey, body, path: "/api/sdk/traces/labels" });
    return { status: res.status, body: res.status === 200 ? ZAgentLabelsResponse.parse(res.body) : res.body };
  };
  const human = async (body: unknown, apiKey = org.apiKey) => {
    const res = await call(postHumanLabels, { apiKey, body, path: "/api/sdk/traces/labels/human" });
    return { status: res.status, body: res.status === 200 ? ZHumanLabelsResponse.parse(res.body) : res.body };
  };
  const read = async (ids: string[] | string, apiKey = org.apiKey) => {
    const q = Array.isArray(ids) ? ids.join(",") : ids;
    const res = await call(getTraceLabels, { apiKey, path: `/api/sdk/traces/labels?traceIds=${encodeURIComponent(q)}` });
    return { status: res.status, body: res.status === 200 ? ZTraceLabelsResponse.parse(res.body) : res.body };
  };
  const addAssertions = async (traceId: string, texts: string[]) => {
    const res = await call(postAssertions, { apiKey: org.apiKey, body: { updates: [{ traceId, assertions: texts.map((assertion) => ({ assertion })) }] } });
    return res.body.assertions.map((a: { id: string }) => a.id) as string[];
  };
  const labelRows = (traceId: string) => db().prisma.traceLabel.findMany({ where: { traceId }, orderBy: { createdAt: "asc" } });

  it("records an unapproved agent verdict; a new one supersedes it and history is kept", async () => {
    const t = await createTrace(db(), org.organizationId);
    const first = await agent({ labels: [{ traceId: t.id, label: false, annotation: "wrong tool", confidence: "High" }] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ labels: [{ key: t.id, traceId: t.id, action: "set" }] });
    let got = (await read([t.id])).body.labels[0];
    expect(got).toMatchObject({ traceId: t.id, labelStatus: "labeled", label: false, annotation: "wrong tool", confidence: "High", approved: false, labelSource: "agent", passed: 0, failed: 0, assertions: [] });

    await agent({ labels: [{ traceId: t.id, label: true, annotation: "fine after all" }] });
    got = (await read([t.id])).body.labels[0];
    expect(got).toMatchObject({ label: true, annotation: "fine after all" });
    const rows = await labelRows(t.id);
    expect(rows.map((r) => [r.label, r.supersededAt === null])).toEqual([[false, false], [true, true]]);
    expect(rows[1]).toMatchObject({ labelSource: "agent", approved: false, approvalState: "pending", authorUserId: org.userId });
  });

  it("skip withholds a verdict, archive clears it (no-active-label when there is none); rows stay", async () => {
    const t = await createTrace(db(), org.organizationId);
    await agent({ labels: [{ traceId: t.id, label: true, annotation: "ok" }] });
    expect((await agent({ labels: [{ traceId: t.id, skip: true }] })).body.labels[0].action).toBe("skipped");
    expect((await read([t.id])).body.labels[0]).toMatchObject({ labelStatus: "skipped", label: null });
    expect((await agent({ labels: [{ traceId: t.id, archive: true }] })).body.labels[0].action).toBe("archived");
    expect((await read([t.id])).body.labels[0]).toMatchObject({ labelStatus: "unlabeled", label: null, labelSource: null, approved: false });
    expect((await agent({ labels: [{ traceId: t.id, archive: true }] })).body.labels[0].action).toBe("no-active-label");
    expect((await labelRows(t.id)).length).toBe(2);
  });

  it("scores assertions per entry with passed/failed tallies; archived assertions are hidden", async () => {
    const t = await createTrace(db(), org.organizationId);
    const [a1, a2, a3] = await addAssertions(t.id, ["cites sources", "stays polite", "under budget"]);
    const res = await agent({
      labels: [
        { traceId: t.id, assertionId: a1, label: true, annotation: "cited" },
        { traceId: t.id, assertionId: a2, label: false, annotation: "rude" },
        { traceId: t.id, assertionId: a3, skip: true },
      ],
    });
    expect(res.body.labels.map((l: { action: string }) => l.action)).toEqual(["set", "set", "skipped"]);
    let got = (await read([t.id])).body.labels[0];
    expect(got).toMatchObject({ labelStatus: "unlabeled", passed: 1, failed: 1 });
    expect(got.assertions).toEqual([
      { assertionId: a1, assertion: "cites sources", labelStatus: "labeled", label: true, annotation: "cited", confidence: null, labelSource: "agent", approved: false, evidence: null },
      { assertionId: a2, assertion: "stays polite", labelStatus: "labeled", label: false, annotation: "rude", confidence: null, labelSource: "agent", approved: false, evidence: null },
      { assertionId: a3, assertion: "under budget", labelStatus: "skipped", label: null, annotation: null, confidence: null, labelSource: "agent", approved: false, evidence: null },
    ]);
    await call(postArchiveAssertions, { apiKey: org.apiKey, params: { traceId: t.id }, body: { assertionIds: [a2] } });
    got = (await read([t.id])).body.labels[0];
    expect(got.assertions.map((a: { assertionId: string }) => a.assertionId)).toEqual([a1, a3]);
    expect(got).toMatchObject({ passed: 1, failed: 0 });
  });

  it("resolves replay verdicts by originalTraceId + testRunId (+ attempt) and reports unresolved ones", async () => {
    const original = await createTrace(db(), org.organizationId);
    const [assertionId] = await addAssertions(original.id, ["inherited"]);
    const testRunId = newId();
    const attempt0 = await createTrace(db(), org.organizationId, { testRunId, originalTraceId: original.id, replayAttempt: 0 });
    const attempt1 = await createTrace(db(), org.organizationId, { testRunId, originalTraceId: original.id, replayAttempt: 1 });
    const unreplayed = newId();

    const res = await agent({
      testRunId,
      labels: [
        { originalTraceId: original.id, label: true, annotation: "default attempt" },
        { originalTraceId: original.id, attempt: 1, assertionId, label: false, annotation: "attempt 1" },
        { sourceTraceId: original.id, attempt: 1, label: true, annotation: "alias" },
        { originalTraceId: unreplayed, label: true, annotation: "not replayed yet" },
        { originalTraceId: original.id, attempt: 5, skip: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.labels).toEqual([
      { key: original.id, traceId: attempt0.id, action: "set" },
      { key: original.id, traceId: attempt1.id, action: "set" },
      { key: original.id, traceId: attempt1.id, action: "set" },
      { key: unreplayed, traceId: null, action: "skipped", unresolved: true },
      { key: original.id, traceId: null, action: "skipped", unresolved: true },
    ]);
    const got = (await read([attempt1.id, attempt0.id])).body.labels;
    expect(got.map((l: { traceId: string }) => l.traceId)).toEqual([attempt1.id, attempt0.id]);
    expect(got[0]).toMatchObject({ label: true, annotation: "alias", passed: 0, failed: 1 });
    expect(got[0].assertions[0]).toMatchObject({ assertionId, label: false });
    expect(got[1]).toMatchObject({ label: true, annotation: "default attempt" });
    expect((await labelRows(attempt0.id))[0].testRunId).toBe(testRunId);
    expect(await db().prisma.traceLabel.count({ where: { traceId: original.id } })).toBe(0);

    // experimentId is accepted for testRunId (docs/api/labels.md, "POST /api/sdk/traces/labels").
    const viaExperiment = await agent({ experimentId: testRunId, labels: [{ originalTraceId: original.id, skip: true }] });
    expect(viaExperiment.body.labels[0]).toEqual({ key: original.id, traceId: attempt0.id, action: "skipped" });
  });

  it("maps an SDK source trace id that is not a UUID the way ingestion does", async () => {
    const source = `trace_${newId()}`;
    const t = await createTrace(db(), org.organizationId, { id: canonicalId(org.organizationId, source) });
    const res = await agent({ labels: [{ traceId: source, label: true, annotation: "ok" }] });
    expect(res.body.labels[0]).toEqual({ key: source, traceId: t.id, action: "set" });
    expect((await read([source])).body.labels[0].traceId).toBe(t.id);
  });

  it("answers 404 for a direct verdict on a trace of another organization (or an unknown one) and writes nothing", async () => {
    const mine = await createTrace(db(), org.organizationId);
    const theirs = await createTrace(db(), other.organizationId);
    for (const traceId of [theirs.id, newId()]) {
      const res = await agent({ labels: [{ traceId: mine.id, label: true, annotation: "ok" }, { traceId, label: false, annotation: "x" }] });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    expect(await db().prisma.traceLabel.count({ where: { traceId: { in: [mine.id, theirs.id] } } })).toBe(0);
  });

  it("answers 400 for an assertionId that is not active on the trace and writes nothing", async () => {
    const t = await createTrace(db(), org.organizationId);
    const u = await createTrace(db(), org.organizationId);
    const [onU] = await addAssertions(u.id, ["belongs to u"]);
    const [archived] = await addAssertions(t.id, ["archived"]);
    await call(postArchiveAssertions, { apiKey: org.apiKey, params: { traceId: t.id }, body: { assertionIds: [archived] } });
    for (const assertionId of [onU, archived, newId()]) {
      const res = await agent({ labels: [{ traceId: t.id, label: true, annotation: "ok" }, { traceId: t.id, assertionId, label: true, annotation: "x" }] });
      expect(res.status).toBe(400);
    }
    expect(await db().prisma.traceLabel.count({ where: { traceId: t.id } })).toBe(0);
  });

  it.each([
    ["no labels", { labels: [] }],
    ["201 labels", { labels: Array.from({ length: 201 }, () => ({ traceId: newId(), skip: true })) }],
    ["no key", { labels: [{ label: true }] }],
    ["both keys", { testRunId: newId(), labels: [{ traceId: newId(), originalTraceId: newId(), label: true }] }],
    ["attempt with traceId", { labels: [{ traceId: newId(), attempt: 0, label: true }] }],
    ["originalTraceId without testRunId", { labels: [{ originalTraceId: newId(), label: true }] }],
    ["no mode", { labels: [{ traceId: newId(), annotation: "?" }] }],
    ["two modes", { labels: [{ traceId: newId(), label: true, skip: true }] }],
    ["a non-boolean label", { labels: [{ traceId: newId(), label: "yes" }] }],
    ["an unknown confidence", { labels: [{ traceId: newId(), label: true, confidence: "Certain" }] }],
    ["a negative attempt", { testRunId: newId(), labels: [{ originalTraceId: newId(), attempt: -1, skip: true }] }],
  ])("answers 400 for %s", async (_name, body) => {
    const res = await agent(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
  });

  it("concurrent verdicts on one target leave exactly one current verdict", async () => {
    const t = await createTrace(db(), org.organizationId);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => agent({ labels: [{ traceId: t.id, label: i % 2 === 0, annotation: `v${i}` }] })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const rows = await labelRows(t.id);
    expect(rows.length).toBe(6);
    expect(rows.filter((r) => r.supersededAt === null).length).toBe(1);
  });

  it("reads in the given order, once per trace, listing ids that did not resolve", async () => {
    const a = await createTrace(db(), org.organizationId);
    const b = await createTrace(db(), org.organizationId);
    const theirs = await createTrace(db(), other.organizationId);
    const missing = newId();
    const res = await read([b.id, missing, a.id, theirs.id, b.id, "not-a-trace"]);
    expect(res.status).toBe(200);
    expect(res.body.labels.map((l: { traceId: string }) => l.traceId)).toEqual([b.id, a.id]);
    expect(res.body.unresolvedTraceIds).toEqual([missing, theirs.id, "not-a-trace"]);
    // Org B sees its own trace, and none of org A's.
    const theirView = await read([a.id, theirs.id], other.apiKey);
    expect(theirView.body.labels.map((l: { traceId: string }) => l.traceId)).toEqual([theirs.id]);
  });

  it.each(["", ",", Array.from({ length: 101 }, () => newId()).join(",")])("answers 400 for traceIds=%#", async (ids) => {
    expect((await read(ids)).status).toBe(400);
  });

  it("answers 400 without traceIds and 401 without a key", async () => {
    expect((await call(getTraceLabels, { apiKey: org.apiKey, path: "/api/sdk/traces/labels" })).status).toBe(400);
    expect((await call(getTraceLabels, { path: "/api/sdk/traces/labels?traceIds=x" })).status).toBe(401);
  });

  describe("human labels", () => {
    it("are validated at once and supersede an agent verdict", async () => {
      const t = await createTrace(db(), org.organizationId);
      const [assertionId] = await addAssertions(t.id, ["checked by a person"]);
      await agent({ labels: [{ traceId: t.id, label: false, annotation: "agent thinks so" }] });
      const res = await human({
        labels: [
          { traceId: t.id, label: true, annotation: "looks right to me" },
          { traceId: t.id, assertionId, label: false, annotation: "missed it", confidence: "Medium" },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        labels: [
          { traceId: t.id, assertionId: null, label: true, action: "set" },
          { traceId: t.id, assertionId, label: false, action: "set" },
        ],
      });
      const got = (await read([t.id])).body.labels[0];
      expect(got).toMatchObject({ labelStatus: "labeled", label: true, approved: true, labelSource: "human", failed: 1 });
      expect(got.assertions[0]).toMatchObject({ assertionId, labelSource: "human", approved: true, confidence: "Medium" });
      const current = (await labelRows(t.id)).filter((r) => r.supersededAt === null && r.assertionId === null)[0];
      expect(current).toMatchObject({ approvalState: "approved", approvedByUserId: org.userId });
      expect(current.approvedAt).not.toBeNull();
      expect((await labelRows(t.id)).length).toBe(3);
    });

    it("fail as a whole with 400 for a foreign trace, a duplicate target, or an inactive assertion", async () => {
      const t = await createTrace(db(), org.organizationId);
      const u = await createTrace(db(), org.organizationId);
      const theirs = await createTrace(db(), other.organizationId);
      const [onU] = await addAssertions(u.id, ["of u"]);
      const [archived] = await addAssertions(t.id, ["archived"]);
      await call(postArchiveAssertions, { apiKey: org.apiKey, params: { traceId: t.id }, body: { assertionIds: [archived] } });
      const good = { traceId: t.id, label: true, annotation: "fine" };
      const cases = [
        [good, { traceId: theirs.id, label: true }],
        [good, { traceId: newId(), label: true }],
        [good, { traceId: t.id.toUpperCase(), label: false }],
        [good, { traceId: t.id, assertionId: onU, label: true }],
        [good, { traceId: t.id, assertionId: archived, label: true }],
      ];
      for (const labels of cases) {
        const res = await human({ labels });
        expect(res.status, JSON.stringify(labels[1])).toBe(400);
        expect(res.body.error).toEqual(expect.any(String));
      }
      expect(await db().prisma.traceLabel.count({ where: { traceId: { in: [t.id, theirs.id] } } })).toBe(0);
      // The same trace with different assertions is not a duplicate.
      const [a1] = await addAssertions(t.id, ["fresh"]);
      expect((await human({ labels: [good, { traceId: t.id, assertionId: a1, label: true }] })).status).toBe(200);
    });

    it.each([
      ["no labels", { labels: [] }],
      ["201 labels", { labels: Array.from({ length: 201 }, () => ({ traceId: newId(), label: true })) }],
      ["no label", { labels: [{ traceId: newId() }] }],
      ["no traceId", { labels: [{ label: true }] }],
    ])("answer 400 for %s", async (_name, body) => {
      expect((await human(body)).status).toBe(400);
    });
  });
});
