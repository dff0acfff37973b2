// Oversized carriers: sent alone and intact when they fit, otherwise trimmed (docs/sdk-transport.md,
// rules 5-7; Limits: 3,000,000 / 7,800,000 / 2,800,000 / 8,000,000).
import { expect } from "vitest";
import type { Carrier } from "../recorder/types.ts";
import { budgetErrors, incompressibleChunk, isPlaceholder, repeat, requestsWith, spanData, WIRE_TARGET } from "../runner/checks.ts";
import { conformance, type Ctx } from "../runner/harness.ts";

/** Records a root span with the given input and output, flushes, and returns its carrier and request. */
async function oversized(ctx: Ctx, input: unknown, output: unknown = 1) {
  const { traceId } = await ctx.trace({ name: "root", input, output });
  expect(await ctx.flush(60_000)).toBe(true);
  const isSpan = (c: Carrier) => c.operation === "external_span" && c.payload.sourceTraceId === traceId;
  const requests = requestsWith(ctx, isSpan);
  expect(requests, "the span was delivered once").toHaveLength(1);
  const request = requests[0]!;
  return { request, carrier: request.carriers.find(isSpan) as Carrier };
}

// 40,000 characters that deflate cannot find repeats in (its window is 32 KB), so repeats of it stay large.
const NOISE = incompressibleChunk(40_000, 7);

conformance("oversized carriers and trimming", [
  {
    name: "a carrier over the wire target that gzips under it is sent alone and intact",
    rule: "transport rule 5",
    breaks: "trim-oversized-always",
    async run(ctx) {
      const { request, carrier } = await oversized(ctx, repeat("a", 4_000_000));
      expect(request.carriers, "alone in its request").toHaveLength(1);
      expect(request.body.length).toBeGreaterThan(WIRE_TARGET);
      expect(request.headers["content-encoding"]).toBe("gzip");
      expect(JSON.stringify(spanData(carrier).input)).toContain("a".repeat(4_000_000));
      expect(budgetErrors(carrier)).toEqual([]);
    },
  },
  {
    name: "a payload of more than 7,800,000 carrier bytes is trimmed at once, even when it would compress",
    rule: "transport rule 7; Limits: per-span carrier budget 7,800,000",
    breaks: "per-span-budget-8m",
    timeoutMs: 60_000,
    async run(ctx) {
      const under = await oversized(ctx, repeat("a", 7_700_000));
      expect(isPlaceholder(spanData(under.carrier).input), "7,700,000 bytes: intact").toBe(false);
      expect(budgetErrors(under.carrier)).toEqual([]);
      const over = await oversized(ctx, repeat("a", 7_850_000));
      expect(isPlaceholder(spanData(over.carrier).input), "7,850,000 bytes: trimmed").toBe(true);
      expect(budgetErrors(over.carrier)).toHaveLength(1);
    },
  },
  {
    name: "the budget is measured on the payload re-escaped into the carrier",
    rule: "transport rule 7",
    breaks: "budget-unescaped",
    timeoutMs: 60_000,
    async run(ctx) {
      // 1,960,000 backslashes: 3,920,000 bytes of payload JSON, 7,840,000 once escaped again into the attribute.
      const { carrier } = await oversized(ctx, repeat("\\", 1_960_000));
      expect(isPlaceholder(spanData(carrier).input), "trimmed: over 7,800,000 carrier bytes").toBe(true);
      expect(budgetErrors(carrier)).toHaveLength(1);
    },
  },
  {
    name: "a carrier that does not gzip under the wire target is trimmed to the 2,800,000-byte fallback",
    rule: "transport rules 6-7; Limits: fallback trim budget 2,800,000",
    breaks: "fallback-budget-3m",
    timeoutMs: 60_000,
    async run(ctx) {
      // Input ~3,000,000 and output ~2,840,000 incompressible bytes: tried intact, gzip stays above the target.
      // Trimming the input alone leaves ~2,840,000 bytes, over 2,800,000, so the output goes too.
      const { request, carrier } = await oversized(ctx, repeat(NOISE, 75), repeat(NOISE, 71));
      const data = spanData(carrier);
      expect(isPlaceholder(data.input), "input trimmed").toBe(true);
      expect(isPlaceholder(data.output), "output trimmed as well").toBe(true);
      expect(data.name, "identifying fields are never trimmed").toBe("root");
      expect(carrier.payload.rawSpan.id).toBeTruthy();
      expect(budgetErrors(carrier)).toHaveLength(1);
      expect(request.raw.length).toBeLessThanOrEqual(WIRE_TARGET);
    },
  },
  {
    name: "trimming is recorded under payload_budget and warned about once",
    rule: "transport rule 6",
    breaks: "warn-every-trim",
    timeoutMs: 60_000,
    async run(ctx) {
      const before = ctx.driver.stderr.length;
      const first = await oversized(ctx, repeat("a", 7_900_000));
      expect(budgetErrors(first.carrier)).toHaveLength(1);
      const afterFirst = ctx.driver.stderr.length;
      expect(afterFirst, "a warning on the first trim").toBeGreaterThan(before);
      const second = await oversized(ctx, repeat("b", 7_900_000));
      expect(budgetErrors(second.carrier)).toHaveLength(1);
      expect(ctx.driver.stderr.slice(afterFirst), "no second warning").toBe("");
    },
  },
]);
