// Failed sign-in limits, kept in memory per server process (docs/api/console.md, "Sign-in limits"). The
// client is its socket address, or the proxy's X-Forwarded-For under REPRISE_TRUST_PROXY only, so a
// direct client cannot rotate "addresses" by sending a header.
//  - per (account, client): 5 failures in 15 minutes refuse that client for that account;
//  - per client: 30 failures in 15 minutes (any emails) refuse that client, so one client hammering
//    random emails is stopped before it costs a password check;
//  - per account: past 50 failures in 15 minutes from all clients, the account is refused to every client
//    that failed on it, and a client that did not may still try once per 30 seconds for the whole
//    account: a guesser with many addresses gets two tries a minute, and the real user still gets in.
// With several instances each counts on its own (the budget grows with the instance count but stays
// bounded). A restart forgets the counters.

const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL_AND_IP = 5;
export const MAX_FAILURES_PER_IP = 30;
export const MAX_FAILURES_PER_EMAIL = 50;
/** Over the per-account limit, one attempt per this long from clients with no failure on the account. */
export const LOCKED_ACCOUNT_ATTEMPT_INTERVAL_MS = 30_000;
/** Bound on remembered keys, so a flood of random emails cannot grow memory without limit. */
const MAX_KEYS = 10_000;

export class SignInLimiter {
  private failures = new Map<string, number[]>();
  private lastLockedAttempt = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Admits one sign-in attempt: 0 when it may run now (over the account limit this takes the account's
   * slot), else the seconds until it may be tried again.
   */
  admit(email: string, ip: string): number {
    const now = this.now();
    const pair = this.recent(pairKey(email, ip));
    const waits = [waitFor(pair, MAX_FAILURES_PER_EMAIL_AND_IP), waitFor(this.recent(ipKey(ip)), MAX_FAILURES_PER_IP)];
    const accountFreeAt = waitFor(this.recent(emailKey(email)), MAX_FAILURES_PER_EMAIL);
    if (accountFreeAt !== null && accountFreeAt > now) {
      if (pair.length > 0) waits.push(accountFreeAt);
      else {
        const last = this.lastLockedAttempt.get(email);
        if (last !== undefined && last + LOCKED_ACCOUNT_ATTEMPT_INTERVAL_MS > now) waits.push(last + LOCKED_ACCOUNT_ATTEMPT_INTERVAL_MS);
      }
    }
    const ms = Math.max(0, ...waits.map((w) => (w === null ? 0 : w - now)));
    if (ms > 0) return Math.ceil(ms / 1000);
    if (accountFreeAt !== null && accountFreeAt > now) this.remember(this.lastLockedAttempt, email, now);
    return 0;
  }

  recordFailure(email: string, ip: string): void {
    for (const key of [pairKey(email, ip), emailKey(email), ipKey(ip)]) {
      const list = this.recent(key);
      list.push(this.now());
      this.remember(this.failures, key, list);
    }
  }

  /** A successful sign-in clears the pair's failures (not the account's: they guard against many clients). */
  recordSuccess(email: string, ip: string): void {
    this.failures.delete(pairKey(email, ip));
  }

  /** Sets a key as the most recent one, forgetting the oldest past MAX_KEYS. */
  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    while (map.size > MAX_KEYS) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - WINDOW_MS;
    return (this.failures.get(key) ?? []).filter((t) => t > cutoff);
  }
}

const pairKey = (email: string, ip: string) => `p:${email}\u0000${ip}`;
const emailKey = (email: string) => `e:${email}`;
const ipKey = (ip: string) => `i:${ip}`;

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
