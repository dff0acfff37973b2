// lifecycle.*: the console's deletes, pins and retention go through the same services as REST, scoped to the
// signed-in member's organization (docs/operations.md, "Deleting data" and "Retention").
import { beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createTrace } from "../../../test/factories.ts";
import { signedInCaller } from "../testing.ts";

describe("lifecycle router", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Console");
    other = await createTestOrg(db(), "Elsewhere");
  });

  it("counts, then deletes the list's matches with the console's filters (replays left out by default)", async () => {
    const caller = await signedInCaller(db(), org.email);
    const kept = await createTrace(db(), org.organizationId, { traceFunctionKey: "console-fn", name: "keep" });
    const gone = await Promise.all([1, 2].map(() => createTrace(db(), org.organizationId, { traceFunctionKey: "console-fn", name: "drop me" })));
    const replay = await createTrace(db(), org.organizationId, { traceFunctionKey: "console-fn", name: "drop me", testRunId: kept.id });
    const filter = { traceFunctionKey: "console-fn", search: "drop me", includeReplays: false };
    expect((await caller.lifecycle.deleteTraces({ filter, dryRun: true })).count).toBe(2);
    await expect(caller.lifecycle.deleteTraces({ filter, confirmCount: 3 })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(caller.lifecycle.deleteTraces({ filter })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const done = await caller.lifecycle.deleteTraces({ filter, confirmCount: 2 });
    expect(done.deletedTraceIds.sort()).toEqual(gone.map((t) => t.id).sort());
    const left = await db().prisma.trace.findMany({ where: { organizationId: org.organizationId, traceFunctionKey: "console-fn" }, select: { id: true } });
    expect(left.map((t) => t.id).sort()).toEqual([kept.id, replay.id].sort());
  });

  it("pins, deletes one trace and sets retention; another organization's trace is NOT_FOUND and bad periods are refused", async () => {
    const caller = await signedInCaller(db(), org.email);
    const mine = await createTrace(db(), org.organizationId);
    const theirs = await createTrace(db(), other.organizationId);
    expect((await caller.lifecycle.setPin({ traceId: mine.id, pinned: true })).pinned).toBe(true);
    expect((await caller.lifecycle.pin({ traceId: mine.id })).pinned).toBe(true);
    await expect(caller.lifecycle.setPin({ traceId: theirs.id, pinned: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.lifecycle.deleteTrace({ id: theirs.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await caller.lifecycle.deleteTrace({ id: mine.id })).toEqual({ deletedTraceId: mine.id });
    // The console's trace page and list read it as gone at once.
    await expect(caller.traces.get({ id: mine.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const list = await caller.traces.list({ includeReplays: true, limit: 100 });
    expect(list.traces.map((t) => t.id)).not.toContain(mine.id);

    for (const retentionDays of [0, -1, 2.5]) await expect(caller.lifecycle.setRetention({ retentionDays })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await caller.lifecycle.setRetention({ retentionDays: 14 })).retentionDays).toBe(14);
    expect((await caller.lifecycle.retention()).changes[0]).toMatchObject({ previousDays: null, retentionDays: 14, changedVia: "console" });
    expect((await db().prisma.organization.findUnique({ where: { id: other.organizationId } }))?.retentionDays).toBeNull();
  });
});
