// Start-up work, run once per server process by the server entry (server/main.ts), which answers requests
// itself until it is done: apply migrations, create the first organization when configured (else print the
// first-run address with its setup code), open the admin CLI's control channel on the embedded database.
// Background workers register here.
import { getDb } from "./db.ts";
import { getEnv } from "./env.ts";
import { logger } from "./logger.ts";
import { migrate } from "./db/migrator.ts";
import { ensureInitialOrganization } from "./auth/auth.service.ts";
import { listenForAdminCommands } from "./auth/admin-channel.ts";
import { addAdminCommands } from "./auth/admin-commands.ts";
import { TRANSFER_COMMANDS } from "./transfer/admin-commands.ts";
import { isSetupNeeded, issueSetupCode } from "./auth/setup.service.ts";
import { startQuietCompletion } from "./ingest/completion/quiet.worker.ts";
import { startWorkers } from "./workers.ts";
import { isDatabaseUnavailable } from "./errors.ts";

// Export and import run on a server that holds the embedded database too (its control channel).
addAdminCommands(TRANSFER_COMMANDS);

/** Backoff between attempts to reach a database that is not up yet: 1 s doubling to 15 s, without end. */
const DB_RETRY_FIRST_MS = 1_000;
const DB_RETRY_MAX_MS = 15_000;

/**
 * Migrates and creates the first organization, waiting for the database as long as it is unreachable or refuses
 * connections (a server started before its database, or during an outage, serves once the database is up
 * instead of exiting; docs/scaling.md). `onWaiting` hears of each failed attempt.
 */
export async function prepareWhenReachable(onWaiting: (error: Error) => void): Promise<void> {
  let delay = DB_RETRY_FIRST_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await prepareDatabase();
    } catch (error) {
      // Unreachable, refusing connections (55000, class 08) or shutting down: the one classification of errors.ts.
      if (!isDatabaseUnavailable(error)) throw error;
      onWaiting(error as Error);
      logger.warn(`database not reachable; retrying in ${delay / 1000} s`, { attempt, error: (error as Error).message });
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(DB_RETRY_MAX_MS, delay * 2);
    }
  }
}

type StartHook = () => Promise<void> | void;
const hooks: StartHook[] = [];

/** Features with background work (job workers) register a hook that runs after migrations. */
export function onStart(hook: StartHook): void {
  hooks.push(hook);
}

// Job workers: live grading of completed traces, re-runs, replay grading and evaluation (docs/graders.md).
onStart(async () => {
  const env = getEnv();
  await startWorkers(await getDb(), { expireInSeconds: env.REPRISE_GRADING_JOB_EXPIRE_SECONDS, maintenanceIntervalSeconds: env.REPRISE_JOB_MAINTENANCE_SECONDS });
});
// Native OpenTelemetry traces complete by quiet period (docs/otel.md, "Completion").
onStart(async () => void startQuietCompletion((await getDb()).sql, { quietSeconds: getEnv().REPRISE_OTEL_QUIET_SECONDS }));

async function prepareDatabase(): Promise<void> {
  const env = getEnv();
  const db = await getDb();
  const applied = await migrate(db.sql);
  logger.info("database ready", { location: db.location, appliedMigrations: applied });
  const init = await ensureInitialOrganization(db, {
    orgName: env.REPRISE_INIT_ORG_NAME,
    email: env.REPRISE_INIT_USER_EMAIL,
    password: env.REPRISE_INIT_USER_PASSWORD,
    apiKey: env.REPRISE_INIT_API_KEY,
  });
  if (init === "created") logger.info("created the first organization from REPRISE_INIT_* settings");
}

/** Runs start-up to its end; `onWaiting` hears of each attempt that found the database not there yet. */
export async function startServer(onWaiting: (error: Error) => void = () => undefined): Promise<void> {
  const env = getEnv();
  await prepareWhenReachable(onWaiting);
  const db = await getDb();
  // The admin CLI cannot open the embedded database while this process holds it: it sends its commands here.
  if (db.kind === "pglite" && !env.REPRISE_DATA_DIR.startsWith("memory://")) await listenForAdminCommands(db, env.REPRISE_DATA_DIR);
  if (await isSetupNeeded(db)) {
    // Printed whatever the log level: it is the way in (docs/operations.md, "First run").
    const url = `http://localhost:${env.PORT}/setup?code=${issueSetupCode()}`;
    process.stdout.write(`\nReprise has no account yet. Open this address to create the first one (the code works once):\n\n  ${url}\n\n`);
  }
  for (const hook of hooks) await hook();
}
