// Carrier wrapping and the two delivery modes (docs/sdk-transport.md, rules 1 and 2).
import { expect } from "vitest";
import { COLLECTOR_BASE_PATH } from "../recorder/recorder.ts";
import { containsValue, spanData, spanNamed } from "../runner/checks.ts";
import { conformance, type Ctx, KEY, type TreeSpan } from "../runner/harness.ts";

const TREE: TreeSpan = {
  name: "root",
  input: { question: "q-1" },
  output: { answer: "a-1" },
  children: [
    { name: "plan", type: "agent", input: "p-in", output: "p-out" },
    { name: "callModel", type: "llm", input: "m-in", output: "m-out", contexts: [{ model: "m", inputTokens: 3 }] },
  ],
};

/** Records TREE and checks the carriers every mode must produce. */
async function recordTree(ctx: Ctx): Promise<string> {
  const { traceId } = await ctx.trace(TREE);
  expect(await ctx.flush()).toBe(true);
  return traceId;
}

function checkCarriers(ctx: Ctx, traceId: string): void {
  const spans = ctx.spans(traceId);
  const completions = ctx.completions(traceId);
  expect(spans.map((c) => spanData(c).name).sort()).toEqual(["callModel", "plan", "root"]);
  expect(completions).toHaveLength(1);
  for (const carrier of [...spans, ...completions]) {
    expect([...carrier.attributeKeys].sort(), "a carrier carries exactly the operation and the payload").toEqual(["reprise.operation", "reprise.payload"]);
    expect(typeof carrier.payload.sdkVersion, "sdkVersion in every payload").toBe("string");
    expect(carrier.otelTraceId, "carrier OTel trace id").toMatch(/^[0-9a-f]{32}$/);
    expect(carrier.otelSpanId, "carrier OTel span id").toMatch(/^[0-9a-f]{16}$/);
  }
  const carrierSpanIds = new Set([...spans, ...completions].map((c) => c.otelSpanId));
  expect(carrierSpanIds.size, "one carrier span per payload").toBe(4);
  const root = spanNamed(ctx, traceId, "root");
  expect(root.payload.rawSpan.parent_id, "a root span has no parent_id").toBeUndefined();
  expect(root.payload.traceFunctionKey).toBe(KEY);
  expect(containsValue(spanData(root).input, TREE.input), "root input recorded").toBe(true);
  expect(containsValue(spanData(root).output, TREE.output), "root output recorded").toBe(true);
  for (const name of ["plan", "callModel"]) {
    const child = spanNamed(ctx, traceId, name);
    expect(child.payload.rawSpan.parent_id, `${name} is a child of root`).toBe(root.payload.rawSpan.id);
    expect(child.payload.rawSpan.trace_id).toBe(traceId);
  }
  expect(spanData(spanNamed(ctx, traceId, "callModel")).contexts).toEqual([{ model: "m", inputTokens: 3 }]);
  const completion = completions[0]!.payload;
  expect(completion.completed).toBe(true);
  expect(completion.traceFunctionKey).toBe(KEY);
  expect(completion.externalTrace?.id ?? completion.id).toBe(traceId);
}

conformance("carriers and delivery modes", [
  {
    name: "each span and the trace completion travel as their own carrier, OTLP/JSON to /api/sdk/otel/v1/traces",
    rule: "transport rules 1-2",
    breaks: "completion-as-span",
    async run(ctx) {
      const traceId = await recordTree(ctx);
      checkCarriers(ctx, traceId);
      for (const request of ctx.recorder.of("otlp")) {
        expect(request.headers["content-type"]).toContain("application/json");
      }
      expect(ctx.recorder.of("collector")).toHaveLength(0);
    },
  },
  {
    name: "Collector mode sends OTLP/protobuf to the endpoint with /v1/traces appended",
    rule: "transport rule 2",
    breaks: "collector-json",
    env: (recorder) => ({ REPRISE_OTEL_EXPORTER_ENDPOINT: `${recorder.url}${COLLECTOR_BASE_PATH}` }),
    async run(ctx) {
      const traceId = await recordTree(ctx);
      const requests = ctx.recorder.of("collector");
      expect(requests.length, "requests reached <endpoint>/v1/traces").toBeGreaterThan(0);
      for (const request of requests) expect(request.headers["content-type"]).toBe("application/x-protobuf");
      checkCarriers(ctx, traceId);
    },
  },
  {
    name: "Collector mode appends /v1/traces to the endpoint base",
    rule: "transport rule 2",
    breaks: "collector-no-append",
    env: (recorder) => ({ REPRISE_OTEL_EXPORTER_ENDPOINT: `${recorder.url}${COLLECTOR_BASE_PATH}/` }),
    async run(ctx) {
      await recordTree(ctx);
      expect(ctx.recorder.of("unknown").map((r) => r.path), "nothing posted elsewhere").toEqual([]);
      expect(ctx.recorder.of("collector").length).toBeGreaterThan(0);
    },
  },
  {
    name: "Collector mode never also sends to Reprise directly",
    rule: "transport rule 2",
    breaks: "collector-both",
    env: (recorder) => ({ REPRISE_OTEL_EXPORTER_ENDPOINT: `${recorder.url}${COLLECTOR_BASE_PATH}` }),
    async run(ctx) {
      const traceId = await recordTree(ctx);
      await ctx.driver.call("sleep", { ms: 300 });
      expect(ctx.recorder.of("otlp"), "no OTLP/JSON request to /api/sdk/otel/v1/traces").toHaveLength(0);
      expect(ctx.recorder.carriers().filter((c) => c.payload.sourceTraceId === traceId || c.payload.id === traceId)).toHaveLength(4);
    },
  },
]);
