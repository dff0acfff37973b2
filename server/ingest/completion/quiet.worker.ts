// The background loop of the quiet-period sweep, started once per server process (server/startup.ts).
import type { SqlDatabase } from "../../db/sql.ts";
import { logger } from "../../logger.ts";
import { sweepQuietTraces, SWEEP_BATCH } from "./quiet.service.ts";

export function startQuietCompletion(db: SqlDatabase, options: { quietSeconds: number; intervalMs?: number }): { stop(): Promise<void> } {
  const intervalMs = options.intervalMs ?? Math.min(1000, options.quietSeconds * 500);
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      try {
        const { completed, amended } = await sweepQuietTraces(db, options.quietSeconds);
        if (completed >= SWEEP_BATCH || amended >= SWEEP_BATCH) continue;
      } catch (error) {
        logger.error("quiet-period completion failed; retrying", { error });
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, intervalMs);
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
