// Start-up work, run once per server process before requests are served (instrumentation.ts):
// apply migrations, create the first organization when configured. Background workers register here.
import { getDb } from "./db.ts";
import { getEnv } from "./env.ts";
import { logger } from "./logger.ts";
import { migrate } from "./db/migrator.ts";
import { ensureInitialOrganization } from "./auth/auth.service.ts";
import { startQuietCompletion } from "./ingest/completion/quiet.worker.ts";
import { startWorkers } from "./workers.ts";

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

export async function startServer(): Promise<void> {
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
  for (const hook of hooks) await hook();
}
