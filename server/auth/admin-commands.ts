// The admin CLI's commands (docs/operations.md, "Admin CLI"). One table, run either by the CLI itself on a
// database it opened, or by a running server that received the command on its control channel
// (admin-channel.ts), so both paths behave and answer alike.
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { ZCreateOrganizationInput, ZEmail } from "./auth.schemas.ts";
import { createApiKeyForEmail, createOrganization } from "./auth.service.ts";
import { setRoleByEmail } from "./roles/roles.service.ts";
import { ZAuditQuery } from "./audit/audit.schemas.ts";
import { findAuditEvents } from "./audit/audit.service.ts";
import { ZRole, ZScope } from "./settings/settings.schemas.ts";

/** --scope defaults to admin: the operator's own key, as before scopes. */
const ZCreateApiKeyFlags = z.object({ email: ZEmail, scope: ZScope.default("admin") });
const ZSetRoleFlags = z.object({ email: ZEmail, role: ZRole });
const ZExportAuditFlags = z.object({
  organization: z.uuid({ message: "must be an organization id" }),
  kind: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
});

export type TAdminFlags = Record<string, string | undefined>;
/** A command: `check` validates the flags before any database is opened, `run` does the work. */
interface Command {
  check: (flags: TAdminFlags) => void;
  run: (db: Database, flags: TAdminFlags) => Promise<Record<string, unknown>>;
}

/** A command line the CLI cannot run: the message is followed by the usage text. */
export class AdminUsageError extends Error {}

const commands: Record<string, Command> = {
  "create-org": {
    check: (flags) => ZCreateOrganizationInput.parse(required(flags, ["name", "email", "password"])),
    run: async (db, flags) => {
      const { name, email, password } = required(flags, ["name", "email", "password"]);
      return { ...(await createOrganization(db, { name, email, password })) };
    },
  },
  "create-api-key": {
    check: (flags) => ZCreateApiKeyFlags.parse(required(flags, ["email"])),
    run: async (db, flags) => {
      const { email, scope } = ZCreateApiKeyFlags.parse(required(flags, ["email"]));
      const { apiKey } = await createApiKeyForEmail(db, email, { name: flags.name ?? "", scope });
      return { apiKey, scope };
    },
  },
  "export-audit": {
    check: (flags) => ZExportAuditFlags.parse(required(flags, ["organization"])),
    run: async (db, flags) => {
      const { organization, kind, from, to, limit, cursor } = ZExportAuditFlags.parse(required(flags, ["organization"]));
      return { ...(await findAuditEvents(db, organization, ZAuditQuery.parse({ kind, from, to, limit, cursor }))) };
    },
  },
  "set-role": {
    check: (flags) => ZSetRoleFlags.parse(required(flags, ["email", "role"])),
    run: async (db, flags) => {
      const { email, role } = ZSetRoleFlags.parse(required(flags, ["email", "role"]));
      return { ...(await setRoleByEmail(db, email, role)) };
    },
  },
};

export function isAdminCommand(name: string): boolean {
  return Object.hasOwn(commands, name);
}

function required<K extends string>(flags: TAdminFlags, names: K[]): Record<K, string> {
  const missing = names.filter((n) => !flags[n]);
  if (missing.length > 0) throw new AdminUsageError(`Missing ${missing.map((m) => `--${m}`).join(", ")}.`);
  return flags as Record<K, string>;
}

function command(name: string): Command {
  const found = isAdminCommand(name) ? commands[name] : undefined;
  if (!found) throw new AdminUsageError(`Unknown command "${name}".`);
  return found;
}

/**
 * Checks a command line without a database: an unknown command, a missing flag or a malformed one is reported at
 * once, before the CLI opens (and perhaps creates and migrates) the database. Throws what runAdminCommand throws.
 */
export function checkAdminCommand(name: string, flags: TAdminFlags): void {
  command(name).check(flags);
}

/** Runs one command; throws AdminUsageError, AppError or a ZodError (see describeAdminError). */
export async function runAdminCommand(db: Database, name: string, flags: TAdminFlags): Promise<Record<string, unknown>> {
  const found = command(name);
  found.check(flags);
  return found.run(db, flags);
}

/** The one-line message the CLI prints for a failed command, and whether the usage text follows it. */
export function describeAdminError(error: unknown): { message: string; usage: boolean } {
  if (error instanceof AdminUsageError) return { message: error.message, usage: true };
  if (error instanceof AppError) return { message: error.message, usage: false };
  if (error instanceof z.ZodError) {
    return { message: error.issues.map((i) => `--${i.path.join(".")} ${i.message}`).join("; "), usage: false };
  }
  return { message: (error as Error)?.message ?? String(error), usage: false };
}
