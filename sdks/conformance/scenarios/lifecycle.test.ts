// Lifecycle: completion and expectedSpanCount, close, and the bounded queue (docs/sdk-transport.md: completion,
// client transport rule 10; Limits: processor queue 8,192).
import { expect } from "vitest";
import { spanData, spanNamed } from "../runner/checks.ts";
import { conformance, type TreeSpan } from "../runner/harness.ts";

conformance("completion, close and the queue", [
  {
    name: "expectedSpanCount counts every span carrier of the trace, root included",
    rule: "trace completion; expectedSpanCount",
    breaks: "expected-count-off-by-one",
    async run(ctx) {
      const { traceId } = await ctx.trace({
        name: "root",
        children: [
          { name: "a", output: 1, children: [{ name: "a1", output: 2 }] },
          { name: "b", error: "boom" },
          { name: "c", output: 3 },
        ],
      });
      expect(await ctx.flush()).toBe(true);
      const ids = new Set(ctx.spans(traceId).map((c) => c.payload.rawSpan.id));
      expect(ids.size).toBe(5);
      expect(ctx.completions(traceId)).toHaveLength(1);
      expect(ctx.completions(traceId)[0]!.payload.expectedSpanCount).toBe(5);
      expect(spanData(spanNamed(ctx, traceId, "b")).error, "the span's error is recorded").toContain("boom");
    },
  },
  {
    name: "the completion waits for a background child that outlives the root, without blocking the caller",
    rule: "Completion: the completion waits for every span",
    breaks: "complete-early",
    async run(ctx) {
      const { traceId } = await ctx.trace({ name: "root", output: "r", children: [{ name: "bg", background: true, sleepMs: 1_000, output: "late" }] });
      const answeredAt = Date.now();
      await ctx.driver.call("sleep", { ms: 1_500 });
      expect(await ctx.flush()).toBe(true);
      const bg = spanNamed(ctx, traceId, "bg");
      expect(answeredAt, "the traced call returned before its background child finished").toBeLessThan(Date.parse(bg.payload.rawSpan.ended_at));
      const completion = ctx.completions(traceId);
      expect(completion).toHaveLength(1);
      const payload = completion[0]!.payload;
      expect(payload.expectedSpanCount, "both spans counted").toBe(2);
      const ended = Date.parse(payload.externalTrace?.ended_at);
      expect(ended, "the trace ended after its background child").toBeGreaterThanOrEqual(Date.parse(bg.payload.rawSpan.ended_at));
      const bgRequest = ctx.recorder.requests.find((r) => r.carriers.includes(bg))!;
      const completionRequest = ctx.recorder.requests.find((r) => r.carriers.includes(completion[0]!))!;
      expect(completionRequest.seq, "the completion was not sent ahead of the child").toBeGreaterThanOrEqual(bgRequest.seq);
    },
  },
  {
    name: "close flushes, and later submissions are rejected without disturbing the application",
    rule: "transport rule 10",
    breaks: "submit-after-close",
    async run(ctx) {
      const { traceId: before } = await ctx.trace({ name: "root", output: 1 });
      expect(await ctx.driver.call("close")).toBeNull();
      expect(ctx.spans(before), "close flushed what was recorded").toHaveLength(1);
      expect(ctx.completions(before)).toHaveLength(1);
      const { traceId: after } = await ctx.trace({ name: "root", output: 2 });
      await ctx.driver.call("flush", { timeoutMs: 2_000 }).catch(() => undefined);
      await ctx.driver.call("sleep", { ms: 500 });
      expect(ctx.spans(after), "nothing recorded after close is sent").toHaveLength(0);
      expect(ctx.completions(after)).toHaveLength(0);
    },
  },
  {
    name: "a full queue drops its oldest carriers (8,192 kept) and flush still reports success",
    rule: "Limits: processor queue 8,192",
    breaks: "drop-newest",
    timeoutMs: 90_000,
    env: () => ({ REPRISE_DISABLE_SIM_PLAN: "1" }),
    setup: (recorder) => {
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      (recorder as unknown as { release: () => void }).release = release;
      recorder.on("otlp", async () => {
        await released;
        return undefined;
      });
    },
    async run(ctx) {
      // 601 carriers start an export that the recorder holds; 9,001 more arrive while it is held.
      const first = await ctx.trace(wide(599));
      await ctx.recorder.waitFor(() => ctx.recorder.of("otlp").length > 0, 15_000, "the first export");
      const second = await ctx.trace(wide(8_999));
      await ctx.driver.call("sleep", { ms: 200 });
      (ctx.recorder as unknown as { release: () => void }).release();
      expect(await ctx.flush(60_000), "dropping carriers is not a delivery failure").toBe(true);
      const received = ctx.recorder.carriers();
      expect(received.length, "some carriers were dropped").toBeLessThan(601 + 9_001);
      expect(received.length, "no more than the queue plus the batch in flight").toBeLessThanOrEqual(8_192 + 1_024);
      expect(ctx.completions(second.traceId), "the newest carrier was kept").toHaveLength(1);
      const kept = new Set(ctx.spans(second.traceId).map((c) => spanData(c).name));
      const missing = Array.from({ length: 7_999 }, (_, i) => `child-${i + 1_000}`).filter((name) => !kept.has(name));
      expect(missing.slice(0, 5), "the newest 8,000 spans were all kept").toEqual([]);
      expect(ctx.completions(first.traceId).length + ctx.spans(first.traceId).length, "older carriers were dropped").toBeLessThan(601);
    },
  },
]);

function wide(n: number): TreeSpan {
  return { name: "root", children: Array.from({ length: n }, (_, i) => ({ name: `child-${i}`, output: i })) };
}
