/** Where the SDK writes its warnings. Defaults to stderr; tests and hosts may replace it. */
export interface RepriseLogger {
  /** Receives one human-readable warning line. */
  warn(message: string): void;
}

/** The default logger: one `[reprise]` line on stderr per warning. */
export const stderrLogger: RepriseLogger = {
  warn(message) {
    process.stderr.write(`[reprise] ${message}\n`);
  },
};

const warnedKeys = new Set<string>();

/**
 * Warns once per process for a given key (docs/sdk-transport.md, rule 6: the SDK warns once).
 * Returns true when the warning was emitted.
 */
export function warnOnce(logger: RepriseLogger, key: string, message: string): boolean {
  if (warnedKeys.has(key)) return false;
  warnedKeys.add(key);
  safeWarn(logger, message);
  return true;
}

/** Forgets which warnings were emitted; for tests only. */
export function resetWarnOnceForTests(): void {
  warnedKeys.clear();
}

/**
 * Rate-limits a repeating warning (for example delivery failures while the server is down) to one line per
 * interval and key, so a long outage does not flood stderr.
 */
export class ThrottledWarner {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly logger: RepriseLogger,
    private readonly intervalMs = 30_000,
  ) {}

  /** Emits `message` unless the same key was warned about within the interval. */
  warn(key: string, message: string): void {
    const now = Date.now();
    const previous = this.last.get(key);
    if (previous !== undefined && now - previous < this.intervalMs) return;
    this.last.set(key, now);
    safeWarn(this.logger, message);
  }
}

/** Calls the logger, swallowing anything it throws: tracing must never break the application. */
export function safeWarn(logger: RepriseLogger, message: string): void {
  try {
    logger.warn(message);
  } catch {
    // A broken logger is not the application's problem.
  }
}
