// The only place that reads process.env (docs/architecture.md, "Layers"). Parsed once, validated with zod, like t3's
// env.js.
import { z } from "zod";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

const intInRange = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const flag = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const value = (v ?? "").trim().toLowerCase();
    if (value === "" || value === "false" || value === "0" || value === "no") return false;
    if (value === "true" || value === "1" || value === "yes") return true;
    ctx.addIssue({ code: "custom", message: "must be true or false" });
    return z.NEVER;
  });

export const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: intInRange(1, 65535, 3000),
  DATABASE_URL: optionalString.pipe(
    z.string().regex(/^postgres(ql)?:\/\//, "must start with postgresql://").optional(),
  ),
  /** A streaming standby of DATABASE_URL's server for the console's heavy reads (docs/scaling.md). */
  DATABASE_READ_URL: optionalString.pipe(
    z.string().regex(/^postgres(ql)?:\/\//, "must start with postgresql://").optional(),
  ),
  REPRISE_DATA_DIR: optionalString.transform((v) => v ?? "./.data"),
  REPRISE_INIT_ORG_NAME: optionalString,
  REPRISE_INIT_USER_EMAIL: optionalString,
  REPRISE_INIT_USER_PASSWORD: optionalString,
  REPRISE_INIT_API_KEY: optionalString,
  REPRISE_OTLP_INGEST_CONCURRENCY: intInRange(1, 32, 8),
  /** How long the console's search through trace content may run (ms) before it asks for a narrower filter. */
  REPRISE_CONTENT_SEARCH_TIMEOUT_MS: intInRange(1, 600_000, 5_000),
  /** Native OpenTelemetry traces complete once their root arrived and no span arrived for this long (docs/otel.md). */
  REPRISE_OTEL_QUIET_SECONDS: intInRange(1, 86_400, 10),
  REPRISE_JUDGE_CONCURRENCY: intInRange(1, 64, 4),
  /**
   * A grading job still running after this long is presumed lost with its instance (killed, crashed) and
   * is retried by another (docs/scaling.md). Keep it above a judge call with its retries.
   */
  REPRISE_GRADING_JOB_EXPIRE_SECONDS: intInRange(1, 86_400, 600),
  /** How often each instance's job worker expires lost jobs and archives finished ones. */
  REPRISE_JOB_MAINTENANCE_SECONDS: intInRange(1, 3_600, 30),
  /**
   * When the retention sweep runs (a pg-boss cron schedule, UTC; docs/operations.md "Retention"): it removes traces
   * older than each organization's retention period and purges what deletions left.
   */
  REPRISE_RETENTION_SWEEP_CRON: optionalString.transform((v) => v ?? "17 * * * *"),
  /** When the alert rules are evaluated (pg-boss cron, UTC; docs/alerts.md, "Evaluation"): every minute by default. */
  REPRISE_ALERTS_CRON: optionalString.transform((v) => v ?? "* * * * *"),
  /** Attempts after the first to deliver an alert webhook, and the first retry's delay, doubled each time (docs/alerts.md, "Delivery"). */
  REPRISE_ALERT_RETRY_LIMIT: intInRange(0, 20, 8),
  REPRISE_ALERT_RETRY_DELAY_SECONDS: intInRange(1, 3600, 10),
  /** Model the LLM judge uses for replay assertions without a `check` (graders name their own model). */
  REPRISE_JUDGE_MODEL: optionalString.transform((v) => v ?? "gpt-4o-mini"),
  /**
   * Whether X-Forwarded-For/-Host/-Proto are believed (a reverse proxy in front sets them). Off: the client
   * address is the socket's, the host is Host, https is the socket's (docs/api/console.md "Behind a proxy").
   */
  REPRISE_TRUST_PROXY: flag,
  /** A console session not used for this long ends (docs/operations.md, "Sessions"); 14 days after sign-in at most. */
  REPRISE_SESSION_IDLE_MINUTES: intInRange(5, 20_160, 720),
  /**
   * The console's public address (https://reprise.example.com), for links the server hands out: the single sign-on
   * redirect URI. Empty: the address of the request (the proxy's under REPRISE_TRUST_PROXY).
   */
  REPRISE_PUBLIC_URL: optionalString.pipe(z.url({ message: "must be an absolute URL" }).optional()),
  REPRISE_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  OPENAI_BASE_URL: optionalString.transform((v) => v ?? "https://api.openai.com/v1"),
  OPENAI_API_KEY: optionalString,
});

export type TEnv = z.infer<typeof ZEnv>;

let cached: TEnv | undefined;

/** The validated environment. Throws a readable error naming every bad variable. */
export function getEnv(): TEnv {
  if (cached) return cached;
  const parsed = ZEnv.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}

/** For tests that change the environment between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}

/**
 * Next.js and React choose their production or development build from NODE_ENV when they are loaded, which
 * `next start` and `next dev` set themselves: the server entry (server/main.ts) sets it before loading Next.js.
 */
export function setNodeEnv(mode: "development" | "production"): void {
  // Not `process.env.NODE_ENV = …`: Next.js's build replaces that expression by a string in its bundles.
  Object.assign(process.env, { NODE_ENV: mode });
  cached = undefined;
}
