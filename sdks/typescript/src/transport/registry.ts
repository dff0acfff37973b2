/** Anything that can be flushed: one per live client. */
export interface Flushable {
  flush(timeoutMs: number): Promise<boolean>;
}

const live = new Set<Flushable>();

/** Registers a live client pipeline so global flushes and the replay barrier reach it. */
export function registerLive(item: Flushable): void {
  live.add(item);
}

/** Unregisters a pipeline (on close). */
export function unregisterLive(item: Flushable): void {
  live.delete(item);
}

/**
 * Flushes every live client pipeline. Resolves false when any of them failed or timed out (docs/sdk-transport.md,
 * rule 10). Dropped carriers do not make it fail.
 */
export async function flushAllLive(timeoutMs = 30_000): Promise<boolean> {
  const results = await Promise.all([...live].map((item) => item.flush(timeoutMs).catch(() => false)));
  return results.every(Boolean);
}
