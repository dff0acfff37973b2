// Start-up work, run once per server process before requests are served (instrumentation.ts):
// apply migrations, create the first organization when configured (else print the first-run address with its
// setup code), open the admin CLI's control channel on the embedded database. Background workers register here.
import { getDb } from "./db.ts";
import { getEnv } from "./env.ts";
import { logger } from "./logger.ts";
import { migrate } from "./db/migrator.ts";
import { ensureInitialOrganization } from "./auth/auth.service.ts";
import { listenForAdminCommands } from "./auth/admin-channel.ts";
import { isSetupNeeded, issueSetupCode } from "./auth/setup.service.ts";
import { startQuietCompletion } from "./ingest/completion/quiet.worker.ts";
import { startWorkers } from "./workers.ts";
import { isDatabaseUnavailable } from "./errors.ts";
import { installRequestGate as installGate } from "./http/request-gate.ts";
import { getPasswordCheckBudget } from "./auth/sessions/password-budget.ts";
import { serveDirect, type TRouteFunction } from "./http/direct-route.ts";
import { postOtlpTraces } from "./ingest/otlp/otlp.http.ts";
import { postNativeTraces } from "./ingest/native/native.http.ts";
import { postNativeLogs } from "./ingest/native/native-logs.http.ts";

/**
 * Ingestion's OTLP doors, POST only: the gate serves them with the same route functions as their route.ts,
 * without Next.js (server/http/direct-route.ts). Other methods, and `next dev` (where route files reload on
 * edit), go through Next.js. server/http/direct-route.test.ts checks each path's route.ts exports the same POST.
 */
export const DIRECT_POSTS = new Map<string, TRouteFunction>([
  ["/api/sdk/otel/v1/traces", postOtlpTraces],
  ["/api/otel/v1/traces", postNativeTraces],
  ["/v1/traces", postNativeTraces],
  ["/api/otel/v1/logs", postNativeLogs],
  ["/v1/logs", postNativeLogs],
]);

/** The gate every request passes before Next.js sees it (server/http/request-gate.ts). */
export function installRequestGate(): void {
  // The build's mode, which Next.js writes into the bundle (`next build` against `next dev`), whatever NODE_ENV
  // the server is started with.
  const serveDirectly = process.env.NODE_ENV === "production";
  installGate(
    getEnv().REPRISE_TRUST_PROXY,
    (req) => {
      // Sign-in while every password check is taken: refused at the door, a second late (docs/api/console.md).
      if (req.method !== "POST" || !req.url?.startsWith("/api/trpc/") || !req.url.includes("session.signIn")) return null;
      if (!getPasswordCheckBudget().saturated) return null;
      return { status: 429, body: trpcRefusal(req.url, "Too many sign-ins at once. Try again in a second.", 1), retryAfter: 1, delayMs: 1_000 };
    },
    (req) => {
      if (!serveDirectly || req.method !== "POST") return null;
      const url = req.url ?? "";
      const query = url.indexOf("?");
      const route = DIRECT_POSTS.get(query < 0 ? url : url.slice(0, query));
      return route ? (request, response) => serveDirect(route, request, response) : null;
    },
  );
}

/** A 429 in tRPC's error shape (one per call of a batch), as the console's client reads it. */
function trpcRefusal(url: string, message: string, retryAfter: number): unknown {
  const [pathPart, query = ""] = url.slice("/api/trpc/".length).split("?");
  const paths = (pathPart ?? "").split(",");
  const error = (path: string) => ({
    error: { json: { message, code: -32029, data: { code: "TOO_MANY_REQUESTS", httpStatus: 429, path, appCode: "rate_limited", retryAfter, issues: null } } },
  });
  return new URLSearchParams(query).get("batch") === "1" ? paths.map(error) : error(paths[0] ?? "");
}

/** Backoff between attempts to reach a database that is not up yet: 1 s doubling to 15 s, without end. */
const DB_RETRY_FIRST_MS = 1_000;
const DB_RETRY_MAX_MS = 15_000;

/**
 * Migrates, waiting for the database as long as it is unreachable (a server started before its database,
 * or during an outage, serves once the database is up instead of exiting; docs/scaling.md).
 */
export async function migrateWhenReachable(): Promise<string[]> {
  let delay = DB_RETRY_FIRST_MS;
  for (let attempt = 1; ; attempt++) {
    const db = await getDb();
    try {
      return await migrate(db.sql);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      logger.warn(`database unreachable at ${db.location}; retrying in ${delay / 1000} s`, { attempt, error: (error as Error).message });
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

export async function startServer(): Promise<void> {
  const env = getEnv();
  const applied = await migrateWhenReachable();
  const db = await getDb();
  logger.info("database ready", { location: db.location, appliedMigrations: applied });
  const init = await ensureInitialOrganization(db, {
    orgName: env.REPRISE_INIT_ORG_NAME,
    email: env.REPRISE_INIT_USER_EMAIL,
    password: env.REPRISE_INIT_USER_PASSWORD,
    apiKey: env.REPRISE_INIT_API_KEY,
  });
  if (init === "created") logger.info("created the first organization from REPRISE_INIT_* settings");
  // The admin CLI cannot open the embedded database while this process holds it: it sends its commands here.
  if (db.kind === "pglite" && !env.REPRISE_DATA_DIR.startsWith("memory://")) await listenForAdminCommands(db, env.REPRISE_DATA_DIR);
  if (await isSetupNeeded(db)) {
    // Printed whatever the log level: it is the way in (docs/operations.md, "First run").
    const url = `http://localhost:${env.PORT}/setup?code=${issueSetupCode()}`;
    process.stdout.write(`\nReprise has no account yet. Open this address to create the first one (the code works once):\n\n  ${url}\n\n`);
  }
  for (const hook of hooks) await hook();
}
