// What every admin CLI command is made of (docs/operations.md, "Admin CLI"): its flags, the check run before any
// database is opened, and the run.
import type { Database } from "../db/client.ts";

export type TAdminFlags = Record<string, string | undefined>;

/** A command: `check` validates the flags before any database is opened, `run` does the work. */
export interface AdminCommand {
  check: (flags: TAdminFlags) => void;
  run: (db: Database, flags: TAdminFlags) => Promise<Record<string, unknown>>;
}

/** A command line the CLI cannot run: the message is followed by the usage text. */
export class AdminUsageError extends Error {}

export function required<K extends string>(flags: TAdminFlags, names: K[]): Record<K, string> {
  const missing = names.filter((n) => !flags[n]);
  if (missing.length > 0) throw new AdminUsageError(`Missing ${missing.map((m) => `--${m}`).join(", ")}.`);
  return flags as Record<K, string>;
}
