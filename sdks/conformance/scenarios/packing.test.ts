// Packing carriers into requests, and compression (docs/sdk-transport.md, rules 3 and 4; Limits).
import { expect } from "vitest";
import type { RecordedRequest } from "../recorder/types.ts";
import { GZIP_THRESHOLD, otlpRequests, repeat, requestsWith, WIRE_TARGET } from "../runner/checks.ts";
import { conformance, type Ctx, type TreeSpan } from "../runner/harness.ts";

/** A root with `n` children, each returning `bytes` bytes of `fill`. */
function wide(n: number, bytes: number, fill = "x"): TreeSpan {
  return {
    name: "root",
    children: Array.from({ length: n }, (_, i) => ({ name: `child-${i}`, output: bytes > 0 ? repeat(fill, bytes) : i })),
  };
}

/** Records one root span whose input is `length` times "a", flushes, and returns the request that carried it. */
async function requestForInput(ctx: Ctx, length: number): Promise<RecordedRequest> {
  const { traceId } = await ctx.trace({ name: "root", input: repeat("a", length), output: 1 });
  expect(await ctx.flush()).toBe(true);
  const requests = requestsWith(ctx, (c) => c.operation === "external_span" && c.payload.sourceTraceId === traceId);
  expect(requests).toHaveLength(1);
  return requests[0] as RecordedRequest;
}

/**
 * Steers a request to exactly `target` decompressed bytes: request size grows one byte per input character, so
 * a measured request gives the length to send next. Retries a few times in case a field's width changed.
 */
async function requestOfSize(ctx: Ctx, target: number, start: RecordedRequest, startLength: number): Promise<RecordedRequest> {
  let request = start;
  let length = startLength;
  for (let attempt = 0; attempt < 4 && request.body.length !== target; attempt += 1) {
    length += target - request.body.length;
    request = await requestForInput(ctx, length);
  }
  return request;
}

const gzipped = (r: RecordedRequest) => r.headers["content-encoding"] === "gzip";

conformance("packing and compression", [
  {
    name: "requests are bounded by a carrier count, and filled up to it",
    rule: "transport rule 3",
    breaks: "pack-count",
    async run(ctx) {
      await ctx.trace(wide(299, 0));
      expect(await ctx.flush()).toBe(true);
      const counts = otlpRequests(ctx).map((r) => r.carriers.length);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(301);
      const limit = ctx.sdk.carriersPerRequest ?? 512;
      expect(Math.max(...counts), `at most ${limit} carriers per request`).toBeLessThanOrEqual(limit);
      if (ctx.sdk.carriersPerRequest !== undefined) {
        expect(counts, `some request holds exactly ${limit} carriers`).toContain(limit);
      }
    },
  },
  {
    name: "requests never exceed REPRISE_OTEL_MAX_REQUEST_BYTES",
    rule: "transport rule 3; Limits REPRISE_OTEL_MAX_REQUEST_BYTES",
    breaks: "pack-size-overflow",
    env: () => ({ REPRISE_OTEL_MAX_REQUEST_BYTES: "60000" }),
    async run(ctx) {
      await ctx.trace(wide(40, 4_000));
      expect(await ctx.flush()).toBe(true);
      const sizes = otlpRequests(ctx).map((r) => r.body.length);
      expect(sizes.length).toBeGreaterThan(1);
      for (const size of sizes) expect(size).toBeLessThanOrEqual(60_000);
    },
  },
  {
    name: "requests are packed by exact encoded size, not a conservative estimate",
    rule: "transport rule 3",
    breaks: "pack-size-estimate",
    env: () => ({ REPRISE_OTEL_MAX_REQUEST_BYTES: "60000" }),
    async run(ctx) {
      // Carriers of ~9.5 KB: six fit in 60,000 bytes, fewer than any SDK's carrier count, so bytes decide.
      await ctx.trace(wide(30, 9_000));
      expect(await ctx.flush()).toBe(true);
      const sizes = otlpRequests(ctx).map((r) => r.body.length);
      const total = sizes.reduce((a, b) => a + b, 0);
      // Exact packing leaves less than one carrier unused per request.
      expect(sizes.length, `${total} bytes in requests of at most 60,000 bytes`).toBeLessThanOrEqual(Math.ceil(total / 60_000) + 1);
      expect(Math.max(...sizes), "the fullest request is within one carrier of the target").toBeGreaterThan(60_000 - 10_000);
    },
  },
  {
    name: "requests stay within the 3,000,000-byte wire target by default",
    rule: "Limits: SDK wire target 3,000,000",
    breaks: "wire-target-4m",
    async run(ctx) {
      await ctx.trace(wide(10, 700_000, "y"));
      expect(await ctx.flush(60_000)).toBe(true);
      const sizes = otlpRequests(ctx).map((r) => r.body.length);
      const total = sizes.reduce((a, b) => a + b, 0);
      for (const size of sizes) expect(size).toBeLessThanOrEqual(WIRE_TARGET);
      expect(sizes.length).toBeLessThanOrEqual(Math.ceil(total / WIRE_TARGET) + 1);
    },
  },
  {
    name: "a request of 8,191 bytes goes uncompressed, one of 8,192 bytes is gzipped",
    rule: "transport rule 4; Limits: gzip threshold 8,192",
    breaks: "gzip-threshold",
    timeoutMs: 40_000,
    async run(ctx) {
      const first = await requestForInput(ctx, 6_000);
      const below = await requestOfSize(ctx, GZIP_THRESHOLD - 1, first, 6_000);
      expect(below.body.length, "steered to 8,191 bytes").toBe(GZIP_THRESHOLD - 1);
      expect(gzipped(below), "8,191 bytes: uncompressed").toBe(false);
      const at = await requestOfSize(ctx, GZIP_THRESHOLD, below, lengthOf(below));
      expect(at.body.length, "steered to 8,192 bytes").toBe(GZIP_THRESHOLD);
      expect(gzipped(at), "8,192 bytes: gzipped").toBe(true);
      expect(at.raw.length).toBeLessThan(at.body.length);
    },
  },
  {
    name: "gzip is used only when it makes the request smaller",
    rule: "transport rule 4",
    breaks: "gzip-stored",
    async run(ctx) {
      await ctx.trace({ name: "root", input: repeat("a", 20_000), output: 1 });
      await ctx.trace({ name: "root", input: "small", output: 1 });
      expect(await ctx.flush()).toBe(true);
      const requests = otlpRequests(ctx);
      expect(requests.some(gzipped)).toBe(true);
      for (const r of requests.filter(gzipped)) expect(r.raw.length, "gzipped body smaller than the original").toBeLessThan(r.body.length);
    },
  },
  {
    name: "REPRISE_DISABLE_COMPRESSION sends every request uncompressed",
    rule: "Limits: REPRISE_DISABLE_COMPRESSION",
    breaks: "compression-not-disabled",
    env: () => ({ REPRISE_DISABLE_COMPRESSION: "1" }),
    async run(ctx) {
      await ctx.trace({ name: "root", input: repeat("a", 50_000), output: 1 });
      expect(await ctx.flush()).toBe(true);
      const requests = otlpRequests(ctx);
      expect(requests.length).toBeGreaterThan(0);
      for (const r of requests) expect(r.headers["content-encoding"]).toBeUndefined();
    },
  },
]);

/** The input length of the single-"a"-run root span a request carried. */
function lengthOf(request: RecordedRequest): number {
  const span = request.carriers.find((c) => c.operation === "external_span");
  const runs = JSON.stringify(span?.payload.rawSpan?.span_data?.input ?? "").match(/a+/g) ?? [];
  return Math.max(0, ...runs.map((run) => run.length));
}
