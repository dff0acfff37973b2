/**
 * One throttle for the whole transport (docs/sdk-transport.md, rule 8): a `Retry-After` received by one request
 * holds back every request of the same transport until it expires.
 */
export class Throttle {
  private until = 0;

  /** Holds every request for `ms` from now (never shortens an existing hold). */
  hold(ms: number, now = Date.now()): void {
    this.until = Math.max(this.until, now + ms);
  }

  /** Milliseconds left before requests may go out again. */
  remainingMs(now = Date.now()): number {
    return Math.max(0, this.until - now);
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A counting semaphore bounding the requests in flight (docs/sdk-transport.md, rule 3). */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Runs `task` once a slot is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
