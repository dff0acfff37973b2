import { describe, expect, it } from "vitest";
import { allCarriers } from "./helpers/fake-server.js";
import { clientAndServer, router } from "./helpers/client.js";

type Payload = Record<string, any>;
const spans = (carriers: Array<{ operation: string; payload: Payload }>) =>
  carriers.filter((c) => c.operation === "external_span").map((c) => c.payload);
const completion = (carriers: Array<{ operation: string; payload: Payload }>) =>
  carriers.find((c) => c.operation === "external_trace")?.payload;

const PLAN = {
  nodes: [
    { traceFunctionKey: "agent", name: "secret-tool", captureContent: false },
    { traceFunctionKey: "agent", name: "agent", captureContent: false },
    { traceFunctionKey: "agent", name: "ignored", captureContent: true },
    { traceFunctionKey: 7, name: "malformed", captureContent: false },
  ],
};

async function setup(simPlan: () => { status?: number; body?: unknown }) {
  const { client, server } = await clientAndServer(router({ "GET /api/sdk/sim-plan": simPlan }), { disableSimPlan: false });
  const tool = client.withSpan("secret-tool", { type: "function" }, (x: string, fail = false) => {
    if (fail) throw new Error("tool failed");
    return `secret ${x}`;
  });
  const other = client.withSpan("public-tool", (x: string) => `public ${x}`);
  const agent = client.withTrace("agent", (x: string, fail = false) => {
    try {
      tool(x, fail);
    } catch {
      // recorded on the span
    }
    return other(x);
  });
  return { client, server, agent };
}

describe("sim plan", () => {
  it("sends content-off spans, roots and children alike, without content and flagged, and counts them", async () => {
    const { client, server, agent } = await setup(() => ({ body: PLAN }));
    agent("x");
    expect(await client.flushTraces()).toBe(true);
    const carriers = allCarriers(server);
    const sent = spans(carriers);
    expect(sent.map((s) => s.rawSpan.span_data.name).sort()).toEqual(["agent", "public-tool", "secret-tool"]);
    for (const name of ["agent", "secret-tool"]) {
      const data = sent.find((s) => s.rawSpan.span_data.name === name)!.rawSpan.span_data;
      expect(data.content_off_by_simulation_plan).toBe(true);
      for (const field of ["input", "input_meta", "output", "output_meta"]) expect(data).not.toHaveProperty(field);
    }
    const publicTool = sent.find((s) => s.rawSpan.span_data.name === "public-tool")!;
    expect(publicTool.rawSpan.span_data.output).toBe("public x");
    expect(completion(carriers)?.expectedSpanCount).toBe(3);
    const reads = server.requests.filter((r) => r.path === "/api/sdk/sim-plan");
    expect(reads).toHaveLength(1);
    expect(reads[0]!.headers.connection).toBe("close");
    expect(reads[0]!.headers.authorization).toBe("Bearer rp_test");
  });

  it("sends a content-off child that recorded an error, without content and flagged", async () => {
    const { client, server, agent } = await setup(() => ({ body: PLAN }));
    agent("x", true);
    await client.flushTraces();
    const carriers = allCarriers(server);
    const tool = spans(carriers).find((s) => s.rawSpan.span_data.name === "secret-tool")!;
    expect(tool.rawSpan.span_data).toMatchObject({ error: "tool failed", content_off_by_simulation_plan: true });
    expect(tool.rawSpan.span_data).not.toHaveProperty("input");
    expect(completion(carriers)?.expectedSpanCount).toBe(3);
  });

  it("reads the plan at most once a minute", async () => {
    const { client, server, agent } = await setup(() => ({ body: PLAN }));
    for (let i = 0; i < 5; i += 1) agent(`${i}`);
    await client.flushTraces();
    expect(server.requests.filter((r) => r.path === "/api/sdk/sim-plan")).toHaveLength(1);
  });

  it("treats 404 as an empty plan", async () => {
    const { client, server, agent } = await setup(() => ({ status: 404, body: { error: "not found" } }));
    agent("x");
    await client.flushTraces();
    const sent = spans(allCarriers(server));
    expect(sent).toHaveLength(3);
    expect(sent.every((s) => s.rawSpan.span_data.content_off_by_simulation_plan === undefined)).toBe(true);
    expect(sent.find((s) => s.rawSpan.span_data.name === "secret-tool")?.rawSpan.span_data.output).toBe("secret x");
  });

  it("sends non-root spans without content while the plan is unavailable", async () => {
    const { client, server, agent } = await setup(() => ({ status: 500, body: { error: "down" } }));
    agent("x");
    await client.flushTraces();
    const sent = spans(allCarriers(server));
    expect(sent).toHaveLength(3);
    const root = sent.find((s) => s.rawSpan.parent_id === undefined)!;
    expect(root.rawSpan.span_data.input).toEqual(["x"]);
    for (const child of sent.filter((s) => s.rawSpan.parent_id !== undefined)) {
      expect(child.rawSpan.span_data).not.toHaveProperty("input");
      expect(child.rawSpan.span_data.content_off_by_simulation_plan).toBe(true);
    }
  });

  it("is never read when disabled", async () => {
    const { client, server } = await clientAndServer(router({ "GET /api/sdk/sim-plan": () => ({ body: PLAN }) }), {
      disableSimPlan: true,
    });
    client.withTrace("agent", () => client.withSpan("secret-tool", () => 1)())();
    await client.flushTraces();
    expect(server.requests.some((r) => r.path === "/api/sdk/sim-plan")).toBe(false);
    expect(spans(allCarriers(server))).toHaveLength(2);
  });
});
