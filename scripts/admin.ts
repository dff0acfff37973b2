// Admin CLI (docs/operations.md, "Admin CLI"): `npm run --silent admin -- <command> [--flag value]…`.
// Prints exactly one JSON object on stdout; on failure a message on stderr and a non-zero exit code.
// On the embedded database while a server holds it, the command goes to that server's control channel.
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../server/db/client.ts";
import { isLiveOwner, LOCK_FILE_NAME, readOwner } from "../server/db/data-dir-lock.ts";
import { migrate } from "../server/db/migrator.ts";
import { getEnv } from "../server/env.ts";
import { adminSocketPath, sendAdminCommand } from "../server/auth/admin-channel.ts";
import { checkCopyTarget, runCopyTo } from "./admin-copy-to.ts";
import { addAdminCommands, AdminUsageError, checkAdminCommand, describeAdminError, isAdminCommand, runAdminCommand } from "../server/auth/admin-commands.ts";
import { TRANSFER_COMMANDS, TRANSFER_FLAGS } from "../server/transfer/admin-commands.ts";

addAdminCommands(TRANSFER_COMMANDS);

const USAGE = `Usage: npm run --silent admin -- <command> [options]

Commands:
  create-org --name NAME --email EMAIL --password PASSWORD
      Create an organization with its first user and API key.
      Prints {"organizationId", "userId", "apiKey"}.
  create-api-key --email EMAIL [--name NAME] [--scope ingest|read|read-write|admin]
      Create another API key for an existing user (scope admin unless given). Prints {"apiKey", "scope"}.
  export-audit --organization ORGANIZATION_ID [--kind PREFIX] [--from ISO] [--to ISO] [--limit N] [--cursor C]
      Print a page of the organization's audit log, newest first: {"events", "nextCursor"}.
  set-role --email EMAIL --role owner|admin|member|viewer
      Set a user's role (the organization's last owner stays an owner). Prints {"userId", "email", "role", "previousRole"}.
  snapshot --to FOLDER
      Copy the embedded database into a new folder, consistently, while a server runs on it or not (a
      backup; REPRISE_DATA_DIR=FOLDER opens it). Prints {"to"}.
  copy-to POSTGRESQL_URL [--resume]
      Copy this database into an empty PostgreSQL or Citus database, with progress on stderr; verifies row
      counts and a sample of spans. --resume continues a copy that stopped. Prints a summary per table.
  export --org ORGANIZATION_ID --out FILE [--format jsonl|otlp] [--include graders,datasets]
         [--trace-function-key K] [--status S] [--search TEXT] [--label-state S] [--kind K]
         [--started-from ISO] [--started-to ISO]
      Write the organization's traces matching the filters to FILE (JSON Lines, one trace per line).
      Prints {"file", "format", "lines", "bytes"}.
  import --org ORGANIZATION_ID --file FILE [--include graders,datasets]
      Validate FILE (an export) whole, then write it into the organization; what exists is kept.
      Prints {"file", "report"}.
  get-retention --org ORGANIZATION_ID
      Print the organization's retention period. Prints {"retentionDays", "changes"}.
  set-retention --org ORGANIZATION_ID --days DAYS|forever
      Remove traces older than DAYS days (whole days, at least 1), or keep them forever.
      Prints {"retentionDays", "changes"}.

People (docs/operations.md, "People and invitations"); --as names the owner or admin acting:
  list-users --as EMAIL
  invite-user --as EMAIL --email EMAIL [--role owner|admin|member|viewer] [--days N]
      Prints the invitation and its link (shown this once).
  revoke-invitation --as EMAIL --id INVITATION_ID
  remove-user --as EMAIL --email EMAIL      (their sessions and API keys end at once)
  restore-user --as EMAIL --email EMAIL
  set-role --as EMAIL --email EMAIL --role ROLE
  reset-password-link --as EMAIL --email EMAIL
      Prints a one-time link (24 hours) for them to choose a new password.
  list-sessions --as EMAIL --email EMAIL
  end-sessions --as EMAIL --email EMAIL

Single sign-on (docs/operations.md, "Single sign-on"):
  sso-show --as EMAIL
  sso-set --as EMAIL --issuer URL --client-id ID [--client-secret SECRET] [--enabled true|false]
          [--jit-domains a.com,b.com] [--jit-role ROLE] [--password-sign-in true|false]

Storage: DATABASE_URL (PostgreSQL) when set, else the embedded database in REPRISE_DATA_DIR
(default ./.data). While a server runs on the embedded database, the command is sent to that server.`;

/** A failure already described in words (from the server's control channel). */
class ReportedError extends Error {
  constructor(message: string, readonly usage: boolean) {
    super(message);
  }
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      as: { type: "string" },
      role: { type: "string" },
      id: { type: "string" },
      issuer: { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      enabled: { type: "string" },
      "jit-domains": { type: "string" },
      "jit-role": { type: "string" },
      "password-sign-in": { type: "string" },
      to: { type: "string" },
      ...Object.fromEntries(TRANSFER_FLAGS.map((flag) => [flag, { type: "string" as const }])),
      resume: { type: "boolean" },
      org: { type: "string" },
      days: { type: "string" },
      scope: { type: "string" },
      organization: { type: "string" },
      kind: { type: "string" },
      from: { type: "string" },
      limit: { type: "string" },
      cursor: { type: "string" },
      help: { type: "boolean" },
    },
  });
  const [commandName] = positionals;
  if (values.help || !commandName) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const env = getEnv();
  if (commandName === "copy-to") {
    const target = checkCopyTarget(positionals[1], env);
    const result = await runCopyTo(env, target, values.resume === true, (command, flags) => runOnServer(env.REPRISE_DATA_DIR, command, flags));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  if (!isAdminCommand(commandName)) throw new AdminUsageError(`Unknown command "${commandName}".`);
  const { help: _help, resume: _resume, ...given } = values;
  const flags = Object.fromEntries(Object.entries(given).filter(([, v]) => typeof v === "string")) as Record<string, string>;
  // A running server may run the command (its control channel): files and folders are named from this shell's directory.
  for (const name of ["out", "file", "to"]) if (flags[name]) flags[name] = path.resolve(flags[name]);
  checkAdminCommand(commandName, flags);
  const result = env.DATABASE_URL ? await runHere(env, commandName, flags) : ((await runOnServer(env.REPRISE_DATA_DIR, commandName, flags)) ?? (await runHere(env, commandName, flags)));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return 0;
}

async function runHere(env: ReturnType<typeof getEnv>, command: string, flags: Record<string, string>) {
  const db = await openDatabase({ url: env.DATABASE_URL, dataDir: env.REPRISE_DATA_DIR, maxConnections: 2 });
  try {
    await migrate(db.sql);
    return await runAdminCommand(db, command, flags);
  } finally {
    await db.close();
  }
}

/** When a live server holds the embedded database, runs the command there; undefined when none does. */
async function runOnServer(dataDir: string, command: string, flags: Record<string, string>) {
  const owner = readOwner(path.join(dataDir, LOCK_FILE_NAME));
  if (!owner || owner.pid === process.pid || !isLiveOwner(owner)) return undefined;
  const socketPath = adminSocketPath(dataDir);
  const reply = await sendAdminCommand(socketPath, command, flags).catch((error: Error) => {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${owner.pid}, which does not answer on ${socketPath} (${error.message}). ` +
        "Stop that process first, or use PostgreSQL (DATABASE_URL) to run several processes.",
    );
  });
  if (!reply.ok) throw new ReportedError(reply.message, reply.usage);
  return reply.result;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const { message, usage } = error instanceof ReportedError ? { message: error.message, usage: error.usage } : describeAdminError(error);
    process.stderr.write(`admin: ${message}\n${usage ? `\n${USAGE}\n` : ""}`);
    process.exit(1);
  },
);
