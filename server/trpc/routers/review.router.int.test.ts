// Console review procedures (docs/api/assertions.md, "Review"): the queue of pending assertions with its
// filters (trace function, category, assignee), decisions one at a time or in bulk, edits that keep an
// assertion pending; the experiment report and group reads; other organizations' ids → NOT_FOUND.
import { cliActor } from "../../auth/audit/actor.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../../test/factories.ts";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { saveAssertions } from "../../assertions/assertions.service.ts";
import { saveAssertionCategory } from "../../assertions/categories/categories.service.ts";
import { newId } from "../../ids.ts";
import { signedInCaller } from "../testing.ts";

describe("console review procedures", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  let theirCaller: Awaited<ReturnType<typeof signedInCaller>>;

  beforeAll(async () => {
    org = await createTestOrg(db(), "Review console");
    other = await createTestOrg(db(), "Other");
    caller = await signedInCaller(db(), org.email);
    theirCaller = await signedInCaller(db(), other.email);
  });

  it("lists pending assertions oldest first with filters; decides one or many; an edit keeps it pending", async () => {
    const a = await createTrace(db(), org.organizationId, { traceFunctionKey: "fn-a", name: "trace a" });
    const b = await createTrace(db(), org.organizationId, { traceFunctionKey: "fn-b" });
    const { category } = await saveAssertionCategory(db(), org.organizationId, { title: "Tone" });
    const save = (traceId: string, entries: object[]) => saveAssertions(db(), org, cliActor, { updates: [{ traceId, assertions: entries as never }], source: "agent" }, "agent");
    const [a1, a2] = (await save(a.id, [{ assertion: "one", category_assertion_id: category.id }, { assertion: "two", assigneeEmail: org.email }])).assertions;
    const [b1] = (await save(b.id, [{ assertion: "three" }])).assertions;
    await saveAssertions(db(), org, cliActor, { updates: [{ traceId: b.id, assertions: [{ assertion: "approved by REST" }] }], source: "agent" });
    const ids = async (input: object = {}) => (await caller.review.queue(input)).assertions.map((x) => x.id);
    expect(await ids()).toEqual([a1!.id, a2!.id, b1!.id]);
    expect((await caller.review.queue({})).assertions[0]).toMatchObject({ trace: { id: a.id, name: "trace a", traceFunctionKey: "fn-a" }, category: { title: "Tone" } });
    expect((await caller.review.queue({})).traceFunctionKeys).toEqual(["fn-a", "fn-b"]);
    expect(await ids({ traceFunctionKey: "fn-b" })).toEqual([b1!.id]);
    expect(await ids({ categoryId: category.id })).toEqual([a1!.id]);
    expect(await ids({ assignee: org.email })).toEqual([a2!.id]);
    expect(await ids({ assignee: "unassigned" })).toEqual([a1!.id, b1!.id]);
    expect((await theirCaller.review.queue({})).assertions).toEqual([]);
    const filters = await caller.review.filters();
    expect(filters.categories.map((c) => c.title)).toEqual(["Tone"]);
    expect(filters.members.map((m) => m.email)).toContain(org.email);

    const edited = await caller.review.edit({ traceId: a.id, assertion: { id: a1!.id, assertion: "one, reworded" } });
    expect(edited).toMatchObject({ assertion: "one, reworded", approvalState: "pending" });
    await expect(theirCaller.review.edit({ traceId: a.id, assertion: { id: a1!.id, assertion: "x" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.review.decide({ ids: [a1!.id], approvalState: "approved" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await caller.review.decide({ ids: [a1!.id], approvalState: "approved" })).toEqual({ reviewed: [a1!.id], approvalState: "approved" });
    await caller.review.decide({ ids: [a2!.id, b1!.id], approvalState: "rejected" });
    expect(await ids()).toEqual([]);
  });

  it("the experiment report and groups are the organization's only", async () => {
    await expect(caller.replays.report({ id: newId() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.replays.group({ id: newId() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await theirCaller.replays.groups({})).groups).toEqual([]);
  });
});
