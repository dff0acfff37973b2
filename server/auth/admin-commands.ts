// The admin CLI's commands (docs/operations.md, "Admin CLI"). One table, run either by the CLI itself on a
// database it opened, or by a running server that received the command on its control channel
// (admin-channel.ts), so both paths behave and answer alike.
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { ZCreateOrganizationInput, ZEmail } from "./auth.schemas.ts";
import { AdminUsageError, required, type AdminCommand as Command, type TAdminFlags } from "./admin-flags.ts";
import { createApiKeyForEmail, createOrganization } from "./auth.service.ts";
import { peopleCommands } from "./people/people.commands.ts";
import { sessionCommands } from "./sessions/sessions.commands.ts";
import { ssoCommands } from "./sso/sso.commands.ts";

export { AdminUsageError, type TAdminFlags };

const commands: Record<string, Command> = {
  "create-org": {
    check: (flags) => ZCreateOrganizationInput.parse(required(flags, ["name", "email", "password"])),
    run: async (db, flags) => {
      const { name, email, password } = required(flags, ["name", "email", "password"]);
      return { ...(await createOrganization(db, { name, email, password })) };
    },
  },
  "create-api-key": {
    check: (flags) => z.object({ email: ZEmail }).parse(required(flags, ["email"])),
    run: async (db, flags) => {
      const { email } = required(flags, ["email"]);
      const { apiKey } = await createApiKeyForEmail(db, email, flags.name ?? "");
      return { apiKey };
    },
  },
  ...peopleCommands,
  ...sessionCommands,
  ...ssoCommands,
};

export function isAdminCommand(name: string): boolean {
  return Object.hasOwn(commands, name);
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
