// Retries, Retry-After, the shared throttle, deadlines and what flush reports (docs/sdk-transport.md,
// rules 8-10; Limits: request deadline 30 s).
import { expect } from "vitest";
import type { Action, RecordedRequest } from "../recorder/types.ts";
import { otlpRequests } from "../runner/checks.ts";
import { conformance, type Ctx, type Scenario, type TreeSpan } from "../runner/harness.ts";

const SMALL: TreeSpan = { name: "root", input: "in", output: "out", children: [{ name: "step", output: 1 }] };

async function traceAndFlush(ctx: Ctx, timeoutMs = 30_000): Promise<{ flushed: boolean; ms: number }> {
  await ctx.trace(SMALL);
  const started = Date.now();
  const flushed = await ctx.flush(timeoutMs);
  return { flushed, ms: Date.now() - started };
}

const retried = (label: string, first: Action): Scenario => ({
  name: `${label} is retried and the same request delivered`,
  rule: "transport rule 8",
  breaks: "no-retry",
  setup: (recorder) => void recorder.on("otlp", (_r, n) => (n === 0 ? first : undefined)),
  async run(ctx) {
    const { flushed } = await traceAndFlush(ctx);
    expect(flushed, "flush reports success after the retry").toBe(true);
    const requests = otlpRequests(ctx);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests[1]!.body.equals(requests[0]!.body), "the retry carries the same request").toBe(true);
  },
});

const notRetried = (label: string, answer: Action): Scenario => ({
  name: `${label} is not retried and flush reports false`,
  rule: label.startsWith("413") ? "transport rules 8-9" : "transport rule 8",
  breaks: "retry-everything",
  setup: (recorder) => void recorder.on("otlp", () => answer),
  async run(ctx) {
    const { flushed } = await traceAndFlush(ctx);
    expect(flushed).toBe(false);
    await ctx.driver.call("sleep", { ms: 500 });
    expect(otlpRequests(ctx)).toHaveLength(1);
  },
});

conformance("retries and flush", [
  ...[408, 425, 429, 500, 502, 503, 504].map((status) => retried(`HTTP ${status}`, { status, body: { error: "busy" } })),
  retried("a reset connection", { reset: true }),
  notRetried("413 from ingress", { status: 413, body: { error: "too large", code: "payload_too_large" } }),
  ...[400, 401, 404].map((status) => notRetried(`HTTP ${status}`, { status, body: { error: "no", code: "no" } })),
  notRetried("a 2xx body with an error", { status: 200, body: { error: "rejected" } }),
  notRetried("a partial rejection", { status: 200, body: { partialSuccess: { rejectedSpans: 1, errorMessage: "bad carrier" } } }),
  {
    name: "Retry-After is honoured exactly",
    rule: "transport rule 8",
    breaks: "ignore-retry-after",
    setup: (recorder) => void recorder.on("otlp", (_r, n) => (n === 0 ? { status: 503, headers: { "Retry-After": "1" } } : undefined)),
    async run(ctx) {
      expect((await traceAndFlush(ctx)).flushed).toBe(true);
      const [first, second] = otlpRequests(ctx) as [RecordedRequest, RecordedRequest];
      const waited = second.receivedAt - (first.answeredAt as number);
      expect(waited, "waited the 1 s asked for").toBeGreaterThanOrEqual(980);
      expect(waited, "and not much more").toBeLessThan(2_500);
    },
  },
  {
    name: "a Retry-After beyond the export budget gives up at once and flush reports false",
    rule: "transport rule 8",
    breaks: "wait-past-budget",
    timeoutMs: 60_000,
    setup: (recorder) => void recorder.on("otlp", () => ({ status: 429, headers: { "Retry-After": "20" } })),
    async run(ctx) {
      const { flushed, ms } = await traceAndFlush(ctx, 60_000);
      expect(flushed).toBe(false);
      expect(ms, "gave up without waiting 20 s").toBeLessThan(5_000);
      expect(otlpRequests(ctx)).toHaveLength(1);
    },
  },
  {
    name: "without Retry-After, retries back off exponentially",
    rule: "transport rule 8",
    breaks: "no-backoff",
    setup: (recorder) => void recorder.on("otlp", (_r, n) => (n < 2 ? { status: 503 } : undefined)),
    async run(ctx) {
      expect((await traceAndFlush(ctx)).flushed).toBe(true);
      const [a, b, c] = otlpRequests(ctx) as [RecordedRequest, RecordedRequest, RecordedRequest];
      const first = b.receivedAt - (a.answeredAt as number);
      const second = c.receivedAt - (b.answeredAt as number);
      expect(first, "a first pause").toBeGreaterThanOrEqual(40);
      // Jittered, but the second step's range lies above the first's (a little slack for a loaded machine).
      expect(second, "a longer second pause").toBeGreaterThan(first - 25);
      expect(second, "capped").toBeLessThan(5_500);
    },
  },
  {
    name: "a Retry-After holds back every request of the transport (shared throttle)",
    rule: "transport rule 8",
    breaks: "no-shared-throttle",
    env: () => ({ REPRISE_OTEL_MAX_REQUEST_BYTES: "20000" }),
    setup: (recorder) => {
      let firstAt = 0;
      recorder.on("otlp", (request, n) => {
        if (n === 0) {
          firstAt = request.receivedAt;
          return { delayMs: 100, status: 429, headers: { "Retry-After": "2" } };
        }
        // Siblings sent alongside the first fail without Retry-After: only the shared throttle delays their retry.
        return request.receivedAt < firstAt + 100 ? { delayMs: 300, status: 503 } : undefined;
      });
    },
    async run(ctx) {
      await ctx.trace({ name: "root", children: Array.from({ length: 12 }, (_, i) => ({ name: `c${i}`, output: "z".repeat(5_000) })) });
      expect(await ctx.flush()).toBe(true);
      const requests = otlpRequests(ctx);
      const throttled = requests[0]!;
      expect(requests.some((r) => r.status === 503), "siblings were in flight with the throttled request").toBe(true);
      const later = requests.filter((r) => r.receivedAt > (throttled.answeredAt as number) + 5);
      expect(later.length).toBeGreaterThan(0);
      for (const r of later) expect(r.receivedAt - (throttled.answeredAt as number), `request #${r.seq} waited for the throttle`).toBeGreaterThanOrEqual(1_980);
    },
  },
  {
    name: "a request past the 30 s deadline is abandoned and flush reports false",
    rule: "Limits: request deadline 30 s; transport rule 10",
    breaks: "no-request-deadline",
    timeoutMs: 80_000,
    waitsOnClock: true,
    setup: (recorder) => void recorder.on("otlp", () => ({ delayMs: 70_000 })),
    async run(ctx) {
      const { flushed, ms } = await traceAndFlush(ctx, 60_000);
      expect(flushed).toBe(false);
      expect(ms, "gave up at the deadline, not before").toBeGreaterThanOrEqual(25_000);
      expect(ms, "and not much after").toBeLessThan(40_000);
      const first = otlpRequests(ctx)[0]!;
      if (first.abortedAt !== undefined) {
        // An SDK that closes the abandoned connection closes it at the deadline.
        const waited = first.abortedAt - first.receivedAt;
        expect(waited).toBeGreaterThanOrEqual(25_000);
        expect(waited).toBeLessThanOrEqual(33_000);
      }
    },
  },
  {
    name: "flush reports false when its timeout expires first",
    rule: "transport rule 10",
    breaks: "flush-ignores-timeout",
    timeoutMs: 30_000,
    setup: (recorder) => void recorder.on("otlp", () => ({ delayMs: 10_000 })),
    async run(ctx) {
      const { flushed, ms } = await traceAndFlush(ctx, 1_000);
      expect(flushed).toBe(false);
      expect(ms).toBeLessThan(4_000);
    },
  },
  {
    name: "flush reports false when delivery failed, and true again once it works",
    rule: "transport rule 10",
    breaks: "flush-always-true",
    timeoutMs: 60_000,
    setup: (recorder) => void recorder.on("otlp", () => ({ status: 500 })),
    async run(ctx) {
      expect((await traceAndFlush(ctx)).flushed).toBe(false);
      ctx.recorder.on("otlp", () => undefined);
      expect((await traceAndFlush(ctx)).flushed).toBe(true);
    },
  },
]);
