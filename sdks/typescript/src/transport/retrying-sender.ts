import { sleep, type Throttle } from "./throttle.js";

/** Outcome of one attempt, classified. */
export type AttemptResult =
  | { kind: "ok"; body: Buffer }
  | { kind: "rejected"; status?: number; message: string }
  | { kind: "retryable"; status?: number; message: string; retryAfterMs?: number };

/** Outcome of a request after retries: delivered, or failed with the last reason. */
export type DeliveryResult =
  | { kind: "delivered"; body: Buffer; attempts: number }
  | { kind: "failed"; status?: number; message: string; attempts: number };

/** Retry policy of the OTLP transport (docs/sdk-transport.md, rule 8). */
export interface RetryPolicy {
  maxAttempts: number;
  backoffBaseMillis: number;
  maxBackoffMillis: number;
  requestTimeoutMillis: number;
  /** Source of jitter, replaceable in tests. */
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds, is rejected, or the export budget (`deadline`) cannot afford another wait.
 * A `Retry-After` is honoured exactly through the shared throttle when it fits in half of the remaining budget
 * (the other half is kept for the request); otherwise the request gives up. Without one, the delay is
 * exponential (`base·2^(n-1)`, capped) with jitter in [50%, 100%) (docs/sdk-transport.md, rule 8).
 */
export async function sendWithRetry(
  attempt: (timeoutMs: number) => Promise<AttemptResult>,
  options: { deadline: number; policy: RetryPolicy; throttle: Throttle },
): Promise<DeliveryResult> {
  const { deadline, policy, throttle } = options;
  let last: AttemptResult = { kind: "retryable", message: "no attempt made" };
  for (let n = 1; n <= policy.maxAttempts; n += 1) {
    const held = throttle.remainingMs();
    if (held > 0) {
      if (held > (deadline - Date.now()) / 2) return failed(last, n - 1, `throttled for ${held} ms, beyond the export budget`);
      await sleep(held);
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) return failed(last, n - 1, "export budget exhausted");
    last = await attempt(Math.min(policy.requestTimeoutMillis, remaining));
    if (last.kind === "ok") return { kind: "delivered", body: last.body, attempts: n };
    if (last.kind === "rejected" || n === policy.maxAttempts) break;
    const left = deadline - Date.now();
    if (last.retryAfterMs !== undefined) {
      if (last.retryAfterMs > left / 2) return failed(last, n, `Retry-After ${last.retryAfterMs} ms exceeds the export budget`);
      throttle.hold(last.retryAfterMs);
      continue;
    }
    const delay = backoffDelay(n, policy);
    if (delay > left / 2) return failed(last, n, "backoff exceeds the export budget");
    await sleep(delay);
  }
  return failed(last, policy.maxAttempts);
}

/** Jittered exponential backoff for attempt `n` (1-based). */
export function backoffDelay(n: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxBackoffMillis, policy.backoffBaseMillis * 2 ** (n - 1));
  const random = policy.random ?? Math.random;
  return Math.round(ceiling * (0.5 + random() / 2));
}

function failed(last: AttemptResult, attempts: number, why?: string): DeliveryResult {
  const status = last.kind === "ok" ? undefined : last.status;
  const message = last.kind === "ok" ? "" : last.message;
  return { kind: "failed", status, message: why ? `${message} (${why})` : message, attempts };
}
