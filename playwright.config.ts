// Playwright journeys: the built app (`node scripts/start.mjs`) on a fresh embedded database per run.
import { defineConfig } from "@playwright/test";
import { E2E } from "./e2e/env.ts";
import { findChromium } from "./e2e/find-chromium.ts";

// The browser: e2e/find-chromium.ts.
const executablePath = await findChromium();

export default defineConfig({
  testDir: "e2e",
  // A folder of its own: Playwright empties its output folder when it starts, and `npm test` keeps the other
  // stages' reports and logs in test-results/reports while the system tests run beside the journeys.
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    baseURL: E2E.baseUrl,
    browserName: "chromium",
    headless: true,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node scripts/start.mjs",
    url: `${E2E.baseUrl}/api/health`,
    // A fresh database every run: never reuse a server someone left running.
    reuseExistingServer: false,
    // The first start builds the app (next build), which takes minutes on a small machine.
    timeout: 900_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(E2E.port),
      REPRISE_DATA_DIR: E2E.dataDir,
      DATABASE_URL: "",
      REPRISE_INIT_ORG_NAME: E2E.orgName,
      REPRISE_INIT_USER_EMAIL: E2E.email,
      REPRISE_INIT_USER_PASSWORD: E2E.password,
      REPRISE_INIT_API_KEY: E2E.apiKey,
      REPRISE_LOG_LEVEL: "warn",
      // Native OpenTelemetry traces complete after this quiet period (e2e/otel.spec.ts).
      REPRISE_OTEL_QUIET_SECONDS: "2",
      NODE_ENV: "production",
    },
  },
});
