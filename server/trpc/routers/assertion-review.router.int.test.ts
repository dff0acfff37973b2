// What a reviewer sees and changes (docs/console.md, "Assertions" and "Review"): the Assertions page lists one
// review state at a time (approved by default) with the count of each; a review card's context shows the trace's
// input and output, the targeted span and what the check says on it; editing the check keeps what it replaced
// (who, when, through what), can be undone, and an agent's change of the check sends it back to review.
import { cliActor } from "../../auth/audit/actor.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { saveAssertions } from "../../assertions/assertions.service.ts";
import { signedInCaller } from "../testing.ts";

describe("assertion states, review context and versions", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  let theirCaller: Awaited<ReturnType<typeof signedInCaller>>;
  let traceId = "";
  let answerSpanId = "";
  const agentSave = (entries: object[]) => saveAssertions(db(), org, cliActor, { updates: [{ traceId, assertions: entries as never }], source: "agent" }, "agent");

  beforeAll(async () => {
    org = await createTestOrg(db(), "Reviewers");
    other = await createTestOrg(db(), "Strangers");
    caller = await signedInCaller(db(), org.email);
    theirCaller = await signedInCaller(db(), other.email);
    const t0 = new Date("2026-11-20T10:00:00Z");
    traceId = (await createTrace(db(), org.organizationId, { traceFunctionKey: "refunds", name: "refund 1234" })).id;
    const root = await createSpan(db(), org.organizationId, traceId, { name: "refunds", startedAt: t0, input: ["Can I get a refund?"], output: "Sorry, no refunds." });
    answerSpanId = (await createSpan(db(), org.organizationId, traceId, { name: "answer", parentSpanId: root.id, startedAt: new Date(t0.getTime() + 10), output: "Sorry, no refunds." })).id;
  });

  it("lists approved assertions by default, each other state only when asked, with the count of each", async () => {
    const [kept, dropped, waiting] = (await agentSave([{ assertion: "kept" }, { assertion: "dropped" }, { assertion: "waiting" }])).assertions;
    await caller.review.decide({ ids: [kept!.id], approvalState: "approved" });
    await caller.review.decide({ ids: [dropped!.id], approvalState: "rejected" });
    const list = async (approvalState?: "approved" | "rejected" | "pending" | "all") =>
      (await caller.assertions.recent({ traceFunctionKey: "refunds", ...(approvalState ? { approvalState } : {}) })).assertions.map((a) => [a.assertion, a.approvalState]);
    expect(await list()).toEqual([["kept", "approved"]]);
    expect(await list("rejected")).toEqual([["dropped", "rejected"]]);
    expect(await list("pending")).toEqual([["waiting", "pending"]]);
    expect((await list("all")).sort()).toEqual([["dropped", "rejected"], ["kept", "approved"], ["waiting", "pending"]]);
    expect((await caller.assertions.recent({ traceFunctionKey: "refunds" })).counts).toEqual({ approved: 1, rejected: 1, pending: 1 });
    expect((await theirCaller.assertions.recent({ approvalState: "all" })).assertions).toEqual([]);
    await caller.assertions.archive({ traceId, assertionIds: [kept!.id, dropped!.id, waiting!.id] });
  });

  it("shows a card's trace input and output, the span its target picks and what its check says there now", async () => {
    const [a] = (await agentSave([{ assertion: "offers a refund", targetOnEvaluatedTrace: { kind: "span", name: "answer" }, check: { op: "contains", value: "refund" } }])).assertions;
    const context = await caller.review.context({ assertionId: a!.id });
    expect(context).toMatchObject({
      traceId,
      root: { name: "refunds", input: ["Can I get a refund?"], output: "Sorry, no refunds." },
      target: { description: 'span "answer"', span: { id: answerSpanId, name: "answer", output: "Sorry, no refunds." }, missing: null },
      onThisTrace: { label: true },
    });
    const [missing] = (await agentSave([{ assertion: "cites policy", targetOnEvaluatedTrace: { kind: "span", name: "policy" }, check: { op: "noErrors" } }])).assertions;
    expect(await caller.review.context({ assertionId: missing!.id })).toMatchObject({ target: { span: null, missing: 'no span named "policy" in the trace' }, onThisTrace: { label: null } });
    const [judged] = (await agentSave([{ assertion: "is polite" }])).assertions;
    expect((await caller.review.context({ assertionId: judged!.id })).onThisTrace).toBeNull();
    await expect(theirCaller.review.context({ assertionId: a!.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await caller.assertions.archive({ traceId, assertionIds: [a!.id, missing!.id, judged!.id] });
  });

  it("keeps the check an edit replaced, with who and when; restoring it is an edit that can be undone in turn", async () => {
    const [a] = (await agentSave([{ assertion: "offers a refund", targetOnEvaluatedTrace: { kind: "output" }, check: { op: "contains", value: "refund" } }])).assertions;
    const edited = await caller.review.edit({ traceId, assertion: { id: a!.id, check: { op: "matches", value: "refund|remboursement" } } });
    expect(edited).toMatchObject({ check: { op: "matches", value: "refund|remboursement" }, approvalState: "pending" });
    // The edit changed what a replay judges: the context judges with the new check.
    expect((await caller.review.context({ assertionId: a!.id })).onThisTrace).toMatchObject({ label: true, reason: expect.stringContaining("matches /refund|remboursement/") });

    const history = await caller.assertions.history({ assertionId: a!.id });
    expect(history.current).toMatchObject({ version: 2, check: { op: "matches", value: "refund|remboursement" }, writtenBy: { email: org.email }, writtenThrough: "person" });
    expect(history.versions).toEqual([expect.objectContaining({
      version: 1, check: { op: "contains", value: "refund" }, approvalState: "pending", writtenThrough: "agent",
      replacedBy: expect.objectContaining({ email: org.email }), replacedThrough: "person", replacedAt: expect.any(String),
    })]);

    const reverted = await caller.assertions.revert({ assertionId: a!.id, version: 1 });
    expect(reverted).toMatchObject({ check: { op: "contains", value: "refund" }, approvalState: "pending" });
    const after = await caller.assertions.history({ assertionId: a!.id });
    expect(after.versions.map((v) => [v.version, v.check])).toEqual([[2, { op: "matches", value: "refund|remboursement" }], [1, { op: "contains", value: "refund" }]]);
    await caller.assertions.revert({ assertionId: a!.id, version: 2 });
    expect((await caller.assertions.history({ assertionId: a!.id })).current.check).toEqual({ op: "matches", value: "refund|remboursement" });

    await expect(caller.assertions.revert({ assertionId: a!.id, version: 9 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.assertions.history({ assertionId: a!.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.assertions.revert({ assertionId: a!.id, version: 1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.assertions.revert({ assertionId: a!.id, version: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await caller.assertions.archive({ traceId, assertionIds: [a!.id] });
  });

  it("an agent's change of an approved assertion's check sends it back to review and is kept as the agent's", async () => {
    const a = await caller.assertions.save({ traceId, assertion: { assertion: "answers in English", check: { op: "contains", value: "refund" } } });
    expect(a.approvalState).toBe("approved");
    const [changed] = (await agentSave([{ id: a.id, check: { op: "contains", value: "anything" } }])).assertions;
    expect(changed).toMatchObject({ approvalState: "pending", check: { op: "contains", value: "anything" } });
    const history = await caller.assertions.history({ assertionId: a.id });
    expect(history.current.writtenThrough).toBe("agent");
    expect(history.versions[0]).toMatchObject({ version: 1, check: { op: "contains", value: "refund" }, approvalState: "approved", replacedThrough: "agent" });
    // Restoring the approved version restores its state: what a person approved is judged again.
    expect(await caller.assertions.revert({ assertionId: a.id, version: 1 })).toMatchObject({ approvalState: "approved", check: { op: "contains", value: "refund" } });
    // A decision's note replaces no note silently either.
    await caller.review.decide({ ids: [a.id], approvalState: "approved", humanNote: "checked twice" });
    expect((await caller.assertions.history({ assertionId: a.id })).versions[0]).toMatchObject({ version: 3, humanNote: null });
    await caller.assertions.archive({ traceId, assertionIds: [a.id] });
  });
});
