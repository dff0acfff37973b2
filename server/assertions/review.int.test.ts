// Assertion review (docs/api/assertions.md, "Review", "Categories"): who writes decides the approval state,
// content changes send an assertion back to review, only approved assertions are read as the trace's and
// judged on replay, assignees are members, categories are organization-wide; verdict evidence on labels.
import { cliActor } from "../auth/audit/actor.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { createSpan, createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { newId } from "../ids.ts";
import { getTraceLabels, postAgentLabels, postHumanLabels } from "../labels/labels.http.ts";
import { ZTraceLabelsResponse } from "../labels/labels.schemas.ts";
import { judgeTraceAssertions } from "../replay/complete/evaluation/trace-assertions.ts";
import { getAssertions, postAssertions } from "./assertions.http.ts";
import { ZGetAssertionsResponse, ZSaveAssertionsResponse } from "./assertions.schemas.ts";
import { reviewAssertions, saveAssertions } from "./assertions.service.ts";
import { deleteCategory, getCategory, listCategories, postCategory } from "./categories/categories.http.ts";
import { ZCategoriesResponse, ZCategoryResponse, ZDeleteCategoryResponse } from "./categories/categories.schemas.ts";

describe("assertion review", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;

  beforeAll(async () => {
    org = await createTestOrg(db(), "Review A");
    other = await createTestOrg(db(), "Review B");
  });

  const rest = async (body: unknown, apiKey = org.apiKey) => {
    const res = await call(postAssertions, { apiKey, body, path: "/api/sdk/traces/assertions" });
    return { status: res.status, body: res.status === 200 ? ZSaveAssertionsResponse.parse(res.body) : res.body };
  };
  const read = async (traceId: string, query = "") => {
    const res = await call(getAssertions, { apiKey: org.apiKey, params: { traceId }, path: `/api/sdk/traces/${traceId}/assertions${query}` });
    return ZGetAssertionsResponse.parse(res.body);
  };
  const agentSave = (traceId: string, assertions: Record<string, unknown>[]) =>
    saveAssertions(db(), org, cliActor, { updates: [{ traceId, assertions: assertions as never }], source: "agent" }, "agent");

  it("REST without review fields approves; with them an assertion awaits review unless the write sets its state", async () => {
    const t = await createTrace(db(), org.organizationId);
    const plain = await rest({ updates: [{ traceId: t.id, assertions: [{ assertion: "plain" }] }] });
    expect(plain.body.assertions[0]).toMatchObject({ approvalState: "approved", approvedBy: { id: org.userId } });
    const reviewed = await rest({ updates: [{ traceId: t.id, assertions: [{ assertion: "draft", assigneeEmail: org.email.toUpperCase() }, { assertion: "set", approvalState: "rejected" }] }] });
    expect(reviewed.body.assertions.map((a: { approvalState: string }) => a.approvalState)).toEqual(["pending", "rejected"]);
    expect(reviewed.body.assertions[0]).toMatchObject({ assigneeEmail: org.email, approvedBy: null });
    // Reads return approved assertions only, unless asked for all.
    expect((await read(t.id)).assertions.map((a) => a.assertion)).toEqual(["plain"]);
    expect((await read(t.id, "?includeUnapproved=true")).assertions.map((a) => a.assertion)).toEqual(["plain", "draft", "set"]);
  });

  it("agent writes await review; rewording resets approval unless the same write sets it; approvalState is refused on a new one", async () => {
    const t = await createTrace(db(), org.organizationId);
    const [a] = (await agentSave(t.id, [{ assertion: "answers in French", passCriteria: "French" }])).assertions;
    expect(a).toMatchObject({ approvalState: "pending", source: "agent" });
    await expect(agentSave(t.id, [{ assertion: "x", approvalState: "approved" }])).rejects.toMatchObject({ code: "bad_request" });
    await reviewAssertions(db(), org, cliActor, { ids: [a!.id], approvalState: "approved" });
    // A note alone keeps the approval; a new wording sends it back; a wording with a state keeps that state.
    expect((await agentSave(t.id, [{ id: a!.id, humanNote: "checked" }])).assertions[0]).toMatchObject({ approvalState: "approved", humanNote: "checked" });
    expect((await agentSave(t.id, [{ id: a!.id, passCriteria: "French" }])).assertions[0]).toMatchObject({ approvalState: "approved" });
    expect((await agentSave(t.id, [{ id: a!.id, failCriteria: "English" }])).assertions[0]).toMatchObject({ approvalState: "pending", approvedBy: null });
    expect((await agentSave(t.id, [{ id: a!.id, assertion: "answers in French only", approvalState: "approved" }])).assertions[0]).toMatchObject({ approvalState: "approved" });
    // A person's write (the console) is approved.
    const [p] = (await saveAssertions(db(), org, cliActor, { updates: [{ traceId: t.id, assertions: [{ assertion: "by hand" }] }], source: "human" }, "person")).assertions;
    expect(p).toMatchObject({ approvalState: "approved", source: "human" });
  });

  it("an assignee must be a member and a category must exist: otherwise 400 and nothing written", async () => {
    const t = await createTrace(db(), org.organizationId);
    const before = await db().prisma.assertion.count();
    const bad = [
      { assertion: "a", assigneeEmail: "nobody@example.com" },
      { assertion: "a", assigneeEmail: other.email },
      { assertion: "a", category_assertion_id: newId() },
    ];
    for (const entry of bad) {
      const res = await rest({ updates: [{ traceId: t.id, assertions: [{ assertion: "fine" }, entry] }] });
      expect(res.status, JSON.stringify(entry)).toBe(400);
    }
    expect((await rest({ updates: [{ traceId: t.id, assertions: [{ assertion: "a", justification: [{ spanId: "s1", text: "x" }] }] }] })).status).toBe(400);
    expect((await rest({ updates: [{ traceId: t.id, assertions: [{ assertion: "a", justification: [] }] }] })).status).toBe(400);
    expect(await db().prisma.assertion.count()).toBe(before);
    // "" or null clears the assignee.
    const [a] = (await rest({ updates: [{ traceId: t.id, assertions: [{ assertion: "a", assigneeEmail: org.email }] }] })).body.assertions;
    expect((await rest({ updates: [{ traceId: t.id, assertions: [{ id: a.id, assigneeEmail: "" }] }] })).body.assertions[0].assigneeEmail).toBeNull();
  });

  it("categories: create, edit, list, read; deleting one leaves its assertions uncategorised; another organization's is 404", async () => {
    const save = async (body: unknown, apiKey = org.apiKey) => call(postCategory, { apiKey, body });
    const created = await save({ title: "Tone", description: "How it speaks" });
    expect(created.status).toBe(200);
    const { category } = ZCategoryResponse.parse(created.body);
    expect(created.body.created).toBe(true);
    const edited = await save({ id: category.id, title: "Tone of voice", description: "" });
    expect(edited.body.category).toMatchObject({ id: category.id, title: "Tone of voice", description: null });
    const t = await createTrace(db(), org.organizationId);
    const [a] = (await rest({ updates: [{ traceId: t.id, assertions: [{ assertion: "polite", category_assertion_id: category.id }] }] })).body.assertions;
    expect(a.category).toEqual({ id: category.id, title: "Tone of voice" });
    const listed = ZCategoriesResponse.parse((await call(listCategories, { apiKey: org.apiKey })).body);
    expect(listed.categories.find((c) => c.id === category.id)).toMatchObject({ assertionCount: 1 });
    expect((await call(listCategories, { apiKey: other.apiKey })).body.categories).toEqual([]);
    expect((await call(getCategory, { apiKey: other.apiKey, params: { id: category.id } })).status).toBe(404);
    expect((await call(deleteCategory, { apiKey: other.apiKey, params: { id: category.id } })).status).toBe(404);
    expect((await save({ id: category.id, title: "steal" }, other.apiKey)).status).toBe(404);
    expect((await save({ title: "  " })).status).toBe(400);
    const deleted = await call(deleteCategory, { apiKey: org.apiKey, params: { id: category.id } });
    expect(ZDeleteCategoryResponse.parse(deleted.body)).toEqual({ deleted: category.id, uncategorized: 1 });
    expect((await read(t.id)).assertions[0]).toMatchObject({ id: a.id, category_assertion_id: null, category: null });
    expect((await call(getCategory, { apiKey: org.apiKey, params: { id: category.id } })).status).toBe(404);
  });

  it("review: bulk approve and reject; a foreign or unknown id is 404 and changes nothing", async () => {
    const t = await createTrace(db(), org.organizationId);
    const [a, b] = (await agentSave(t.id, [{ assertion: "one" }, { assertion: "two" }])).assertions;
    const foreign = await createTrace(db(), other.organizationId);
    const [theirs] = (await saveAssertions(db(), other, cliActor, { updates: [{ traceId: foreign.id, assertions: [{ assertion: "theirs" }] }], source: "agent" }, "agent")).assertions;
    await expect(reviewAssertions(db(), org, cliActor, { ids: [a!.id, theirs!.id], approvalState: "approved" })).rejects.toMatchObject({ code: "not_found" });
    expect((await read(t.id, "?includeUnapproved=true")).assertions.map((x) => x.approvalState)).toEqual(["pending", "pending"]);
    await reviewAssertions(db(), org, cliActor, { ids: [a!.id], approvalState: "approved" });
    await reviewAssertions(db(), org, cliActor, { ids: [b!.id], approvalState: "rejected", humanNote: "not what we want" });
    const all = (await read(t.id, "?includeUnapproved=true")).assertions;
    expect(all.map((x) => [x.approvalState, x.humanNote])).toEqual([["approved", null], ["rejected", "not what we want"]]);
    expect(all[1]!.approvedBy).toMatchObject({ id: org.userId });
  });

  it("a replay judges and inherits only approved assertions", async () => {
    const original = await createTrace(db(), org.organizationId, { status: "completed" });
    const runId = newId();
    const replay = await createTrace(db(), org.organizationId, { testRunId: runId, originalTraceId: original.id, replayAttempt: 0, status: "completed" });
    await createSpan(db(), org.organizationId, replay.id, { name: "root", output: "ok" });
    const [approved, pending, rejected] = (await agentSave(original.id, [
      { assertion: "no errors", check: { op: "noErrors" } },
      { assertion: "contains ok", check: { op: "contains", value: "ok" } },
      { assertion: "contains no", check: { op: "contains", value: "no" } },
    ])).assertions;
    await reviewAssertions(db(), org, cliActor, { ids: [approved!.id], approvalState: "approved" });
    await reviewAssertions(db(), org, cliActor, { ids: [rejected!.id], approvalState: "rejected" });
    expect(await read(replay.id)).toMatchObject({ inheritedFrom: original.id, assertions: [{ id: approved!.id }] });
    expect(await judgeTraceAssertions(db(), org.organizationId, runId, replay.id, { model: "unused" })).toBe(1);
    const labels = ZTraceLabelsResponse.parse((await call(getTraceLabels, { apiKey: org.apiKey, path: `/api/sdk/traces/labels?traceIds=${replay.id}` })).body).labels[0]!;
    expect(labels.assertions.map((x) => [x.assertionId, x.labelSource, x.label])).toEqual([[approved!.id, "judge", true]]);
    expect(pending).toBeDefined();
  });

  it("verdict evidence: set with the verdict, kept when omitted, cleared by null, validated, read back per assertion", async () => {
    const t = await createTrace(db(), org.organizationId);
    const span = await createSpan(db(), org.organizationId, t.id, { name: "answer" });
    const [a] = (await rest({ updates: [{ traceId: t.id, assertions: [{ assertion: "French" }] }] })).body.assertions;
    const evidence = [{ spanId: span.id, text: "The answer is in English" }];
    const agent = (labels: unknown[]) => call(postAgentLabels, { apiKey: org.apiKey, body: { labels } });
    const readOne = async () => ZTraceLabelsResponse.parse((await call(getTraceLabels, { apiKey: org.apiKey, path: `/api/sdk/traces/labels?traceIds=${t.id}` })).body).labels[0]!;
    expect((await agent([{ traceId: t.id, assertionId: a.id, label: false, evidence }, { traceId: t.id, label: false, evidence }])).status).toBe(200);
    let got = await readOne();
    expect(got.evidence).toEqual(evidence);
    expect(got.assertions[0]).toMatchObject({ assertionId: a.id, label: false, evidence });
    await agent([{ traceId: t.id, assertionId: a.id, label: true }]);
    expect((await readOne()).assertions[0]).toMatchObject({ label: true, evidence });
    await agent([{ traceId: t.id, assertionId: a.id, label: true, evidence: null }]);
    expect((await readOne()).assertions[0]).toMatchObject({ label: true, evidence: null });
    const human = await call(postHumanLabels, { apiKey: org.apiKey, body: { labels: [{ traceId: t.id, assertionId: a.id, label: false, annotation: "no", evidence }] } });
    expect(human.status).toBe(200);
    got = await readOne();
    expect(got.assertions[0]).toMatchObject({ labelSource: "human", evidence });
    for (const bad of [[], Array.from({ length: 51 }, () => evidence[0]), [{ spanId: "nope", text: "x" }], [{ spanId: span.id, text: "" }]]) {
      expect((await agent([{ traceId: t.id, label: true, evidence: bad }])).status).toBe(400);
    }
    expect((await readOne()).evidence).toEqual(evidence);
  });
});
