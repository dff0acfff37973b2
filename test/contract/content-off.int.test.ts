// Content-off spans sent by the TypeScript SDK, read back the three ways a person or an SDK sees them: the sim
// plan page counts them, the span tree (replay/spanTree) and the trace outline leave them out unless they recorded
// an error (docs/sdk-transport.md, "Sim plan"; docs/replay.md, "Complete"), and the three agree on the same spans.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reprise } from "../../sdks/typescript/src/client.ts";
import { GET as getSimPlan, POST as postSimPlan } from "../../app/api/sdk/sim-plan/route.ts";
import { postOtlpTraces as postOtlp } from "../../server/ingest/otlp/otlp.http.ts";
import { GET as getSpanTree } from "../../app/api/sdk/replay/spanTree/[externalSpanId]/route.ts";
import { findTraceOutlines } from "../../server/replay/outline/outline.service.ts";
import { findSimPlanNodes } from "../../server/sim-plan/sim-plan.service.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../harness.ts";
import { serveRoutes, type ServedRoutes } from "../http-server.ts";

const KEY = "content-off-contract";

interface Named {
  name?: string;
  spanName?: string;
  children: Named[];
}
const names = (nodes: Named[]): string[] => nodes.flatMap((n) => [n.name ?? n.spanName ?? "", ...names(n.children)]);

describe("content-off spans from the SDK: sim plan page, span tree and outline agree", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let reprise: ServedRoutes;
  let client: Reprise;

  beforeAll(async () => {
    org = await createTestOrg(db());
    reprise = await serveRoutes({ "/api/sdk/otel/v1/traces": { POST: postOtlp }, "/api/sdk/sim-plan": { GET: getSimPlan } });
    const decisions = ["secret", "failing-secret"].map((name) => ({ traceFunctionKey: KEY, name, captureContent: false }));
    expect((await call(postSimPlan, { apiKey: org.apiKey, body: { decisions } })).status).toBe(200);
    client = new Reprise({ apiKey: org.apiKey, serviceUrl: reprise.url });
  });
  afterAll(async () => {
    await client?.close(5_000);
    await reprise?.close();
  });

  it("counts every content-off span on the sim plan page and leaves the error-free ones out of both trees", async () => {
    const secret = client.withSpan("secret", async (q: string) => `secret answer to ${q}`);
    const failing = client.withSpan("failing-secret", async () => {
      throw new Error("the secret tool failed");
    });
    const visible = client.withSpan("visible", async (q: string) => `visible answer to ${q}`);
    const answer = client.withTrace(KEY, async (q: string) => {
      await secret(q);
      await failing().catch(() => undefined);
      return visible(q);
    });
    for (const q of ["a", "b"]) await answer(q);
    expect(await client.flushTraces()).toBe(true);

    const traces = await db().prisma.trace.findMany({ where: { organizationId: org.organizationId, traceFunctionKey: KEY } });
    expect(traces).toHaveLength(2);
    const spans = await db().prisma.span.findMany({ where: { organizationId: org.organizationId, traceId: { in: traces.map((t) => t.id) } } });
    expect(spans, "content-off spans are stored, not withheld").toHaveLength(8);
    for (const s of spans.filter((s) => s.name.includes("secret"))) {
      expect(s.contentOffBySimulationPlan).toBe(true);
      expect((s.rawSpan as { span_data: Record<string, unknown> }).span_data).not.toHaveProperty("output");
    }
    for (const t of traces) expect(t.status, "the completion counted the content-off spans").toBe("completed");

    // The sim plan page counts them.
    const nodes = new Map((await findSimPlanNodes(db(), org.organizationId, { traceFunctionKey: KEY })).map((n) => [n.name, n]));
    expect(nodes.get("secret")).toMatchObject({ spanCount: 2, contentOffSpanCount: 2, captureContent: false });
    expect(nodes.get("failing-secret")).toMatchObject({ spanCount: 2, contentOffSpanCount: 2, captureContent: false });
    expect(nodes.get("visible")).toMatchObject({ spanCount: 2, contentOffSpanCount: 0 });

    // The span tree and the outline leave out the error-free one, keep the one that failed, and agree.
    const { outlines } = await findTraceOutlines(db(), org.organizationId, traces);
    for (const t of traces) {
      const root = spans.find((s) => s.traceId === t.id && s.parentSpanId === null)!;
      const tree = await call(getSpanTree, { apiKey: org.apiKey, params: { externalSpanId: root.id } });
      expect(tree.status).toBe(200);
      const treeNames = names([tree.body.root]);
      expect([...treeNames].sort()).toEqual([KEY, "failing-secret", "visible"].sort());
      const outline = outlines.get(t.id)!;
      expect(names(outline.spans as Named[])).toEqual(treeNames);
      expect(outline.spanCount, "the outline still counts every stored span").toBe(4);
    }
  });
});
