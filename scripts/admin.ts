// Admin CLI (decisions.md, "Running it"): `npm run --silent admin -- <command> [--flag value]…`.
// Prints exactly one JSON object on stdout; on failure a message on stderr and a non-zero exit code.
import { parseArgs } from "node:util";
import { openDatabase } from "../server/db/client.ts";
import { migrate } from "../server/db/migrator.ts";
import { getEnv } from "../server/env.ts";
import { AppError } from "../server/errors.ts";
import { createApiKeyForEmail, createOrganization } from "../server/auth/auth.service.ts";
import type { Database } from "../server/db/client.ts";
import { z } from "zod";

const USAGE = `Usage: npm run --silent admin -- <command> [options]

Commands:
  create-org --name NAME --email EMAIL --password PASSWORD
      Create an organization with its first user and API key.
      Prints {"organizationId", "userId", "apiKey"}.
  create-api-key --email EMAIL [--name NAME]
      Create another API key for an existing user. Prints {"apiKey"}.

Storage: DATABASE_URL (PostgreSQL) when set, else the embedded database in REPRISE_DATA_DIR
(default ./.data). With the embedded database, stop the server first.`;

type Command = (db: Database, flags: Record<string, string | undefined>) => Promise<Record<string, unknown>>;

const commands: Record<string, Command> = {
  "create-org": async (db, flags) => {
    const { name, email, password } = required(flags, ["name", "email", "password"]);
    return { ...(await createOrganization(db, { name, email, password })) };
  },
  "create-api-key": async (db, flags) => {
    const { email } = required(flags, ["email"]);
    const { apiKey } = await createApiKeyForEmail(db, email, flags.name ?? "");
    return { apiKey };
  },
};

function required<K extends string>(flags: Record<string, string | undefined>, names: K[]): Record<K, string> {
  const missing = names.filter((n) => !flags[n]);
  if (missing.length > 0) throw new UsageError(`Missing ${missing.map((m) => `--${m}`).join(", ")}.`);
  return flags as Record<K, string>;
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: "string" }, email: { type: "string" }, password: { type: "string" }, help: { type: "boolean" } },
  });
  const [commandName] = positionals;
  if (values.help || !commandName) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const command = commands[commandName];
  if (!command) throw new UsageError(`Unknown command "${commandName}".`);
  const env = getEnv();
  const db = await openDatabase({ url: env.DATABASE_URL, dataDir: env.REPRISE_DATA_DIR, maxConnections: 2 });
  try {
    await migrate(db.sql);
    const result = await command(db, values as Record<string, string | undefined>);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`admin: ${error.message}\n\n${USAGE}\n`);
    else if (error instanceof AppError) process.stderr.write(`admin: ${error.message}\n`);
    else if (error instanceof z.ZodError) {
      process.stderr.write(`admin: ${error.issues.map((i) => `--${i.path.join(".")} ${i.message}`).join("; ")}\n`);
    } else process.stderr.write(`admin: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  },
);
