// GET and POST /api/sdk/sim-plan and the console's node view, against a real database.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import { getSimPlanRoute, postSimPlanRoute } from "./sim-plan.http.ts";
import { ZSimPlanPostResponse, ZSimPlanResponse } from "./sim-plan.schemas.ts";
import { findSimPlanNodes } from "./sim-plan.service.ts";

const getPlan = async (apiKey: string | null) => call(getSimPlanRoute, { apiKey });
const decide = (apiKey: string | null, body: unknown) => call(postSimPlanRoute, { apiKey, body });
const off = (traceFunctionKey: string, name: string) => ({ traceFunctionKey, name, captureContent: false });

describe("sim plan", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  let b: TestOrg;

  /** Records one trace of `key` whose root is `root` and whose children are given as span overrides. */
  async function record(org: TestOrg, key: string, root: string, children: Array<Parameters<typeof createSpan>[3]>) {
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: key });
    const rootSpan = await createSpan(db(), org.organizationId, trace.id, { name: root, traceFunctionKey: key, instrumentation: "trace" });
    for (const c of children) {
      await createSpan(db(), org.organizationId, trace.id, { traceFunctionKey: key, instrumentation: "span", parentSpanId: rootSpan.id, ...c });
    }
  }

  beforeAll(async () => {
    a = await createTestOrg(db(), "A");
    b = await createTestOrg(db(), "B");
    await record(a, "support", "handle", [
      { name: "lookup" },
      { name: "lookup", contentOff: true },
      { name: "graph-node", instrumentation: "langgraph" },
      { name: "legacy-node", instrumentation: null, source: "typescript-sdk-langgraph" },
      { name: "agent-span", payloadType: "openai" },
      // A nested trace function: its node key is the root trace function's key.
      { name: "nested", traceFunctionKey: "inner", nodeKey: "support" },
    ]);
    // In org B, "support/lookup" is a root; that must not lock org A's node.
    await record(b, "support", "lookup", []);
  });

  it("serves an empty plan when nothing was decided", async () => {
    const res = await getPlan(a.apiKey);
    expect(res.status).toBe(200);
    expect(ZSimPlanResponse.parse(res.body)).toEqual({ nodes: [] });
  });

  it("applies decisions on unlocked nodes and refuses locked ones with a reason", async () => {
    const res = await decide(a.apiKey, {
      decisions: [
        off("support", "lookup"),
        off("support", "nested"),
        off("support", "handle"),
        off("support", "graph-node"),
        off("support", "legacy-node"),
        off("support", "agent-span"),
        off("support", "reprise.external_span"),
      ],
    });
    expect(res.status).toBe(200);
    const body = ZSimPlanPostResponse.parse(res.body);
    expect(body.nodes).toEqual([off("support", "lookup"), off("support", "nested")]);
    const refused = Object.fromEntries(body.refused.map((r) => [r.name, r.reason]));
    expect(Object.keys(refused).sort()).toEqual(["agent-span", "graph-node", "handle", "legacy-node", "reprise.external_span"]);
    expect(refused.handle).toMatch(/root/);
    expect(refused["graph-node"]).toMatch(/framework/);
    expect(refused["legacy-node"]).toMatch(/framework/);
    expect(refused["agent-span"]).toMatch(/imported/);
    expect(refused["reprise.external_span"]).toMatch(/assigned by the service/);
    expect(ZSimPlanResponse.parse((await getPlan(a.apiKey)).body).nodes).toEqual(body.nodes);
    // Org B sees none of org A's plan.
    expect((await getPlan(b.apiKey)).body).toEqual({ nodes: [] });
  });

  it("stores decisions on unseen nodes, and stops listing one once a recorded span locks it", async () => {
    await decide(a.apiKey, { decisions: [off("billing", "charge"), off("billing", "bitfab.carrier")] });
    let nodes = ZSimPlanResponse.parse((await getPlan(a.apiKey)).body).nodes;
    expect(nodes).toContainEqual(off("billing", "charge"));
    expect(nodes).not.toContainEqual(off("billing", "bitfab.carrier"));
    // "charge" shows up as the root of a billing trace: the stale decision must not be served.
    await record(a, "billing", "charge", []);
    nodes = ZSimPlanResponse.parse((await getPlan(a.apiKey)).body).nodes;
    expect(nodes).not.toContainEqual(off("billing", "charge"));
  });

  it("turns capture back on, and lets the last of duplicate decisions win", async () => {
    await decide(a.apiKey, { decisions: [off("support", "nested"), { traceFunctionKey: "support", name: "nested", captureContent: true }] });
    expect(ZSimPlanResponse.parse((await getPlan(a.apiKey)).body).nodes).not.toContainEqual(off("support", "nested"));
    await decide(a.apiKey, { decisions: [off("support", "nested")] });
    expect(ZSimPlanResponse.parse((await getPlan(a.apiKey)).body).nodes).toContainEqual(off("support", "nested"));
  });

  it("lists nodes for the console with span counts (content-off spans included) and lock reasons", async () => {
    const nodes = await findSimPlanNodes(db(), a.organizationId, { traceFunctionKey: "support" });
    const byName = Object.fromEntries(nodes.map((n) => [n.name, n]));
    expect(byName.lookup).toEqual({
      traceFunctionKey: "support", name: "lookup", spanCount: 2, contentOffSpanCount: 1,
      decision: false, captureContent: false, locked: false, lockReasons: [],
      decidedBy: a.email, decidedAt: expect.any(String),
    });
    expect(byName.handle).toMatchObject({ spanCount: 1, locked: true, lockReasons: ["root"], captureContent: true, decision: null });
    expect(byName["graph-node"].lockReasons).toEqual(["framework"]);
    expect(byName["agent-span"].lockReasons).toEqual(["imported"]);
    const billing = await findSimPlanNodes(db(), a.organizationId, { traceFunctionKey: "billing" });
    // A stale decision on a node that became locked reads back as locked, capture on.
    expect(billing.find((n) => n.name === "charge")).toMatchObject({ decision: false, locked: true, captureContent: true });
  });

  it.each([
    ["no decisions field", {}],
    ["an empty list", { decisions: [] }],
    ["a string boolean", { decisions: [{ traceFunctionKey: "k", name: "n", captureContent: "false" }] }],
    ["an empty name", { decisions: [off("k", "")] }],
    ["a missing key", { decisions: [{ name: "n", captureContent: false }] }],
    ["a NUL character", { decisions: [off("k", "a\u0000b")] }],
    ["a name longer than any recorded span name", { decisions: [off("k", "n".repeat(401))] }],
    ["too many decisions", { decisions: Array.from({ length: 1001 }, (_, i) => off("k", `n${i}`)) }],
  ])("answers 400 for %s and stores nothing", async (_name, body) => {
    const before = await db().prisma.simPlanDecision.count({ where: { organizationId: a.organizationId } });
    const res = await decide(a.apiKey, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_failed", issues: expect.any(Array) });
    expect(await db().prisma.simPlanDecision.count({ where: { organizationId: a.organizationId } })).toBe(before);
  });

  it("answers 401 without a key", async () => {
    expect((await getPlan(null)).status).toBe(401);
    expect((await decide(null, { decisions: [off("k", "n")] })).status).toBe(401);
  });
});
