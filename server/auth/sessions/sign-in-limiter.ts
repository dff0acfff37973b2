// Failed sign-in rate limiting, kept in memory (per server process). Two windows:
//  - per (email, IP): 5 failures in 15 minutes lock that pair out until the window slides;
//  - per email across all IPs: 50 failures in 15 minutes, because the client IP comes from
//    X-Forwarded-For, which a client talking to us directly can forge to rotate "IPs".
// In memory is enough for one server process (the embedded database allows only one anyway); with
// several instances behind a load balancer each counts on its own, which multiplies the budget by
// the instance count but still bounds guessing. A restart forgets the counters.

const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL_AND_IP = 5;
export const MAX_FAILURES_PER_EMAIL = 50;
/** Bound on remembered keys, so a flood of random emails cannot grow memory without limit. */
const MAX_KEYS = 10_000;

export class SignInLimiter {
  private failures = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until a sign-in for this pair may be tried again, or 0 when it may be tried now. */
  retryAfterSeconds(email: string, ip: string): number {
    const pair = this.recent(pairKey(email, ip));
    const all = this.recent(emailKey(email));
    const waits = [waitFor(pair, MAX_FAILURES_PER_EMAIL_AND_IP), waitFor(all, MAX_FAILURES_PER_EMAIL)];
    const ms = Math.max(...waits.map((w) => (w === null ? 0 : w - this.now())));
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  recordFailure(email: string, ip: string): void {
    for (const key of [pairKey(email, ip), emailKey(email)]) {
      const list = this.recent(key);
      list.push(this.now());
      this.failures.delete(key);
      this.failures.set(key, list);
    }
    while (this.failures.size > MAX_KEYS) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  /** A successful sign-in clears the pair's failures (not the per-email count: that one guards against rotation). */
  recordSuccess(email: string, ip: string): void {
    this.failures.delete(pairKey(email, ip));
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - WINDOW_MS;
    return (this.failures.get(key) ?? []).filter((t) => t > cutoff);
  }
}

const pairKey = (email: string, ip: string) => `p:${email}\u0000${ip}`;
const emailKey = (email: string) => `e:${email}`;

/** When `max` failures are reached, the time at which the oldest counted one leaves the window. */
function waitFor(times: number[], max: number): number | null {
  if (times.length < max) return null;
  return times[times.length - max]! + WINDOW_MS;
}

const KEY = Symbol.for("reprise.signInLimiter");
const holder = globalThis as unknown as { [KEY]?: SignInLimiter };

/** The process-wide limiter (on globalThis: Next.js may load this module in more than one bundle). */
export function getSignInLimiter(): SignInLimiter {
  holder[KEY] ??= new SignInLimiter();
  return holder[KEY];
}
