// The sim plan read and content-off spans (docs/sdk-transport.md and docs/api/sim-plan.md).
import { expect } from "vitest";
import { spanData, spanNamed } from "../runner/checks.ts";
import { API_KEY, conformance, KEY } from "../runner/harness.ts";

const CONTENT = ["input", "input_meta", "output", "output_meta", "input_serialized", "output_serialized"];

conformance("sim plan", [
  {
    name: "the sim plan is read with GET, the API key and Connection: close",
    rule: "GET /api/sdk/sim-plan",
    breaks: "sim-plan-keepalive",
    async run(ctx) {
      await ctx.trace({ name: "root", output: 1 });
      expect(await ctx.flush()).toBe(true);
      const reads = ctx.recorder.of("sim-plan");
      expect(reads).toHaveLength(1);
      expect(reads[0]!.headers.connection).toBe("close");
      expect(reads[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    },
  },
  {
    name: "the sim plan is read at most once a minute",
    rule: "GET /api/sdk/sim-plan: once a minute",
    breaks: "sim-plan-every-read",
    async run(ctx) {
      for (let i = 0; i < 5; i += 1) {
        await ctx.trace({ name: "root", output: i, children: [{ name: "child", output: i }] });
        await ctx.driver.call("sleep", { ms: 300 });
      }
      expect(await ctx.flush()).toBe(true);
      expect(ctx.recorder.of("sim-plan")).toHaveLength(1);
    },
  },
  {
    name: "a sim plan read that takes longer than 5 s is abandoned and spans still go out",
    rule: "GET /api/sdk/sim-plan: 5 s timeout",
    breaks: "sim-plan-timeout-long",
    timeoutMs: 40_000,
    setup: (recorder) => void recorder.on("sim-plan", () => ({ delayMs: 12_000 })),
    async run(ctx) {
      const { traceId } = await ctx.trace({ name: "root", output: 1, children: [{ name: "child", output: 2 }] });
      expect(await ctx.flush(25_000)).toBe(true);
      const read = ctx.recorder.of("sim-plan")[0]!;
      expect(read.abortedAt, "the SDK closed the read").toBeDefined();
      const waited = (read.abortedAt as number) - read.receivedAt;
      expect(waited).toBeGreaterThanOrEqual(4_500);
      expect(waited).toBeLessThan(9_000);
      expect(ctx.spans(traceId)).toHaveLength(2);
      expect(ctx.completions(traceId)[0]!.payload.expectedSpanCount).toBe(2);
    },
  },
  {
    name: "a content-off span is sent without its content and flagged, not withheld",
    rule: "Sim plan: content-off spans are sent without content",
    breaks: "content-off-withheld",
    setup: (recorder) => {
      recorder.simPlanNodes = [
        { traceFunctionKey: KEY, name: "secret", captureContent: false },
        { traceFunctionKey: KEY, name: "failing-secret", captureContent: false },
        { traceFunctionKey: KEY, name: "secret-root", captureContent: false },
      ];
    },
    async run(ctx) {
      const { traceId } = await ctx.trace({
        name: "root",
        input: "root-in",
        output: "root-out",
        children: [
          { name: "secret", input: "s-in", output: "s-out" },
          { name: "failing-secret", input: "f-in", error: "failed" },
          { name: "visible", input: "v-in", output: "v-out" },
        ],
      });
      const { traceId: offRoot } = await ctx.trace({ name: "secret-root", input: "r-in", output: "r-out" });
      expect(await ctx.flush()).toBe(true);
      for (const [trace, name] of [[traceId, "secret"], [traceId, "failing-secret"], [offRoot, "secret-root"]] as const) {
        const data = spanData(spanNamed(ctx, trace, name));
        for (const field of CONTENT) expect(data[field], `${name}: no ${field}`).toBeUndefined();
        expect(data.content_off_by_simulation_plan, `${name}: flagged`).toBe(true);
      }
      expect(spanData(spanNamed(ctx, traceId, "failing-secret")).error).toContain("failed");
      const visible = spanData(spanNamed(ctx, traceId, "visible"));
      expect(JSON.stringify(visible.output)).toContain("v-out");
      expect(visible.content_off_by_simulation_plan).toBeUndefined();
      expect(ctx.completions(traceId)[0]!.payload.expectedSpanCount, "content-off spans count").toBe(4);
    },
  },
]);
