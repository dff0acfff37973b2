// The sim plan page's toggle and its undo (docs/console.md, "Sim plan"): a toggle answers what every node it
// changed was before (the node and those turned off beneath it), restore puts exactly that back without
// cascading, each node says who decided it, and locked nodes stay refused.
import { beforeAll, describe, expect, it } from "vitest";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { signedInCaller } from "../testing.ts";

describe("sim plan toggles and undo", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  let theirCaller: Awaited<ReturnType<typeof signedInCaller>>;
  const node = (name: string, captureContent: boolean) => ({ traceFunctionKey: "support", name, captureContent });

  beforeAll(async () => {
    org = await createTestOrg(db(), "Planners");
    other = await createTestOrg(db(), "Others");
    caller = await signedInCaller(db(), org.email);
    theirCaller = await signedInCaller(db(), other.email);
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: "support" });
    const root = await createSpan(db(), org.organizationId, trace.id, { name: "handle", traceFunctionKey: "support", instrumentation: "trace" });
    const fetch = await createSpan(db(), org.organizationId, trace.id, { name: "fetch", traceFunctionKey: "support", instrumentation: "span", parentSpanId: root.id });
    await createSpan(db(), org.organizationId, trace.id, { name: "parse", traceFunctionKey: "support", instrumentation: "span", parentSpanId: fetch.id });
    await createSpan(db(), org.organizationId, trace.id, { name: "store", traceFunctionKey: "support", instrumentation: "span", parentSpanId: fetch.id });
  });

  const capture = async () => Object.fromEntries((await caller.simPlan.nodes({ traceFunctionKey: "support" })).map((n) => [n.name, n.captureContent]));

  it("answers what a toggle changed, and restore puts exactly that back", async () => {
    await caller.simPlan.decide(node("parse", false));
    const off = await caller.simPlan.decide(node("fetch", false));
    expect(off.cascaded.map((c) => c.name).sort()).toEqual(["parse", "store"]);
    expect(off.previous).toEqual(expect.arrayContaining([node("fetch", true), node("parse", false), node("store", true)]));
    expect(off.previous).toHaveLength(3);
    expect(await capture()).toMatchObject({ fetch: false, parse: false, store: false });

    const undone = await caller.simPlan.restore({ decisions: off.previous });
    expect(undone.refused).toEqual([]);
    // Undo turns fetch and store back on, and leaves parse off as it was decided before: no cascade either way.
    expect(await capture()).toMatchObject({ handle: true, fetch: true, parse: false, store: true });
    const fetchNode = (await caller.simPlan.nodes({ traceFunctionKey: "support" })).find((n) => n.name === "fetch");
    expect(fetchNode).toMatchObject({ decidedBy: org.email, decidedAt: expect.any(String) });
  });

  it("undoes turning a node back on without touching those beneath it", async () => {
    await caller.simPlan.decide(node("fetch", false));
    const on = await caller.simPlan.decide(node("fetch", true));
    expect(on.previous).toEqual([node("fetch", false)]);
    await caller.simPlan.restore({ decisions: on.previous });
    expect(await capture()).toMatchObject({ fetch: false, parse: false, store: false });
  });

  it("refuses to restore a locked node and keeps each organization's plan its own", async () => {
    const res = await caller.simPlan.restore({ decisions: [node("handle", false)] });
    expect(res.refused.map((r) => r.name)).toEqual(["handle"]);
    expect(await capture()).toMatchObject({ handle: true });
    await theirCaller.simPlan.restore({ decisions: [node("fetch", true)] });
    expect(await capture()).toMatchObject({ fetch: false });
    await expect(caller.simPlan.restore({ decisions: [] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
