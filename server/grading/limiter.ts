// A counting semaphore: caps concurrent judge calls per process (REPRISE_JUDGE_CONCURRENCY).
export interface Limiter {
  run<T>(fn: () => Promise<T>): Promise<T>;
  readonly active: number;
}

export function createLimiter(max: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    get active() {
      return active;
    },
    async run(fn) {
      if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      else active++;
      try {
        return await fn();
      } finally {
        // Hand the slot straight to the next waiter (active stays the same), or free it.
        const next = waiting.shift();
        if (next) next();
        else active--;
      }
    },
  };
}
