// Structured one-line JSON logs on stderr. Levels from REPRISE_LOG_LEVEL.
import { getEnv } from "./env.ts";

type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  let threshold = ORDER.info;
  try {
    threshold = ORDER[getEnv().REPRISE_LOG_LEVEL];
  } catch {
    /* an invalid environment is reported elsewhere; keep logging */
  }
  if (ORDER[level] < threshold) return;
  const line = { time: new Date().toISOString(), level, msg: message, ...fields };
  process.stderr.write(`${JSON.stringify(line, errorReplacer)}\n`);
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export const logger = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};
