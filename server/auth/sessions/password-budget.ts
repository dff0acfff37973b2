// A global budget for password checks (docs/api/console.md, "Sign-in limits"). Every sign-in runs scrypt,
// about 50 ms of a core; without a bound, sign-ins with random emails from many clients would take every
// core from ingestion. At most `concurrency` checks run at once, at most `maxWaiting` wait for a turn,
// and past that a sign-in is refused at once with 429 and Retry-After.
import { availableParallelism } from "node:os";
import { AppError } from "../../errors.ts";

export class PasswordCheckBudget {
  private running = 0;
  private waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** True while a new check would be refused (every slot busy, the queue full). */
  get saturated(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.maxWaiting;
  }

  /** Runs `check` within the budget; a full queue is a 429 (rate_limited) without running it. */
  async run<T>(check: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new AppError("rate_limited", "Too many sign-ins at once. Try again in a second.", { retryAfter: 1 });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await check();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; only when none waits is it freed.
      if (next) next();
      else this.running--;
    }
  }
}

/** A quarter of the cores, one at least and two at most: sign-in never takes more than that from ingestion. */
export const PASSWORD_CHECK_CONCURRENCY = Math.min(2, Math.max(1, Math.floor(availableParallelism() / 4)));
export const PASSWORD_CHECK_MAX_WAITING = 4;

const KEY = Symbol.for("reprise.passwordCheckBudget");
const holder = globalThis as unknown as { [KEY]?: PasswordCheckBudget };

/** The process-wide budget (on globalThis: Next.js may load this module in more than one bundle). */
export function getPasswordCheckBudget(): PasswordCheckBudget {
  holder[KEY] ??= new PasswordCheckBudget(PASSWORD_CHECK_CONCURRENCY, PASSWORD_CHECK_MAX_WAITING);
  return holder[KEY];
}
