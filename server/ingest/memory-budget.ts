// Bounds the memory ingestion uses at once. A decompressed 8 MB OTLP body becomes ~6× that in strings,
// parsed payloads and row JSON while it is processed; eight of them at once would push the server past
// its memory target (peak RSS < 600 MB at concurrency 8). Requests beyond the budget wait,
// holding only their body as received (still compressed); the database serializes the writes anyway,
// so throughput does not suffer.
import type { DeferredBody } from "../http/body.ts";

/**
 * Decompressed body bytes processed at once: one maximal (8 MB) request, or a dozen ordinary ones. Two
 * maximal requests at once measured 606 MB peak RSS under the benchmark; the database writes one
 * request's rows at a time in either case, so large requests lose little by waiting their turn.
 */
export const INGEST_BUDGET_BYTES = 8_000_000;

interface Waiter {
  bytes: number;
  resolve: () => void;
}

class ByteBudget {
  private used = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly capacity: number) {}

  /**
   * Runs `fn` once `bytes` are free. `fn` may `resize` its share when it learns its true size: growing
   * never waits (a request already admitted must finish), it only makes later requests wait longer;
   * shrinking admits the waiting requests that now fit.
   */
  async run<T>(bytes: number, fn: (resize: (bytes: number) => void) => Promise<T>): Promise<T> {
    let weight = this.weigh(bytes);
    await this.acquire(weight);
    try {
      return await fn((actual) => {
        const next = this.weigh(actual);
        this.used += next - weight;
        weight = next;
        this.drain();
      });
    } finally {
      this.used -= weight;
      this.drain();
    }
  }

  private weigh(bytes: number): number {
    return Math.max(1, Math.min(bytes, this.capacity));
  }

  private acquire(weight: number): Promise<void> {
    // FIFO: a big request is not starved by a stream of small ones.
    if (this.queue.length === 0 && this.used + weight <= this.capacity) {
      this.used += weight;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push({ bytes: weight, resolve }));
  }

  private drain(): void {
    while (this.queue.length > 0 && this.used + this.queue[0].bytes <= this.capacity) {
      const next = this.queue.shift()!;
      this.used += next.bytes;
      next.resolve();
    }
  }
}

// One budget per process: Next.js bundles each route separately, so a module-level instance would not be shared.
const KEY = Symbol.for("reprise.ingest.memoryBudget");
const holder = globalThis as unknown as { [KEY]?: ByteBudget };

/**
 * Decompresses an ingestion body once its estimated size fits the budget, then runs `fn` on it with
 * the budget corrected to the real size. Waiting requests hold only their compressed bytes.
 */
export function withIngestBody<T>(body: DeferredBody, fn: (raw: Buffer) => Promise<T>): Promise<T> {
  holder[KEY] ??= new ByteBudget(INGEST_BUDGET_BYTES);
  return holder[KEY].run(body.estimatedBytes, async (resize) => {
    // Before a large body too: what other requests left (a sustained load's garbage) goes before this one's adds to it.
    if (body.estimatedBytes >= COLLECT_AFTER_BYTES) collectGarbage();
    const raw = await body.inflate();
    resize(raw.length);
    try {
      return await fn(raw);
    } finally {
      if (raw.length >= COLLECT_AFTER_BYTES) collectGarbage();
    }
  });
}

/** A request body at least this large is preceded and followed by a full collection where the server allows one. */
export const COLLECT_AFTER_BYTES = 1_000_000;

/**
 * A full garbage collection, when the process exposes it (`--expose-gc`, which the server on the embedded database
 * runs with: scripts/start.mjs). A large request's parsed documents and row text are garbage once it is written,
 * but V8 collects its old generation only once that has grown well past what survived the last collection, so the
 * next large request, admitted as soon as this one releases the budget, would start on top of this one's garbage.
 * Collecting before the budget admits it keeps the heap near one large request's worth (bench/README.md, "The
 * embedded database's ceiling"). Tens of milliseconds, paid only by requests of a megabyte and more.
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export { ByteBudget };
