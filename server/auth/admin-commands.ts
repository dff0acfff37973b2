// The admin CLI's commands (docs/operations.md, "Admin CLI"). One table, run either by the CLI itself on a
// database it opened, or by a running server that received the command on its control channel
// (admin-channel.ts), so both paths behave and answer alike.
import { cliActor } from "./audit/actor.ts";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { ZCreateOrganizationInput, ZEmail } from "./auth.schemas.ts";
import { AdminUsageError, required, type AdminCommand as TAdminCommand, type TAdminFlags } from "./admin-flags.ts";
import { createApiKeyForEmail, createOrganization } from "./auth.service.ts";
import { peopleCommands } from "./people/people.commands.ts";
import { sessionCommands } from "./sessions/sessions.commands.ts";
import { ssoCommands } from "./sso/sso.commands.ts";
import { ZRetentionDays, ZRetentionDaysFlag } from "./settings/retention.schemas.ts";
import { getRetention, setRetention } from "./settings/retention.service.ts";
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

export { AdminUsageError, type TAdminCommand, type TAdminFlags };

const commands: Record<string, TAdminCommand> = {
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
  snapshot: {
    check: (flags) => {
      const { to } = z.object({ to: z.string().min(1).refine((f) => path.isAbsolute(f), "must be an absolute path") }).parse(required(flags, ["to"]));
      if (fs.existsSync(to)) throw new AppError("conflict", `${to} already exists; snapshot writes a new folder.`);
    },
    run: async (db, flags) => {
      const { to } = required(flags, ["to"]);
      if (!db.copyDataDir) {
        throw new AppError("bad_request", "snapshot copies the embedded database's folder; for PostgreSQL (DATABASE_URL) use pg_dump.");
      }
      await db.copyDataDir(to);
      return { to };
    },
  },
  "get-retention": {
    check: (flags) => z.object({ org: ZUuidFlag }).parse(required(flags, ["org"])),
    run: async (db, flags) => ({ ...(await getRetention(db, required(flags, ["org"]).org.toLowerCase())) }),
  },
  // docs/operations.md, "Retention": --days N (whole days, at least 1) or --days forever.
  "set-retention": {
    check: (flags) => parseRetentionFlags(flags),
    run: async (db, flags) => {
      const { org, days } = parseRetentionFlags(flags);
      return { ...(await setRetention(db, org, cliActor, days)) };
    },
  },
  ...peopleCommands,
  ...sessionCommands,
  ...ssoCommands,
};

/**
 * Adds the commands of a feature (export and import: server/transfer/admin-commands.ts). The CLI and the
 * server's start-up both add them, so a command sent to a running server's control channel is known there too.
 */
export function addAdminCommands(more: Record<string, TAdminCommand>): void {
  Object.assign(commands, more);
}

const ZUuidFlag = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be an organization id (a UUID)");

function parseRetentionFlags(flags: TAdminFlags): { org: string; days: number | null } {
  const given = z.object({ org: ZUuidFlag, days: ZRetentionDaysFlag }).parse(required(flags, ["org", "days"]));
  const days = given.days === "forever" ? null : z.object({ days: ZRetentionDays }).parse({ days: Number(given.days) }).days;
  return { org: given.org.toLowerCase(), days };
}

export function isAdminCommand(name: string): boolean {
  return Object.hasOwn(commands, name);
}

function command(name: string): TAdminCommand {
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
