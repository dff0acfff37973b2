// `npm test`: every suite that needs no network.
//   1. unit + integration tests on embedded PGlite (Vitest)
//   2. the integration tests again on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set
//   3. the SDK's tests (npm workspace sdk/)
//   4. the Playwright journeys in Chromium, when e2e/ has specs
// Stops at the first failing stage and exits non-zero.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ensureGenerated } from "./ensure-generated.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (result.status !== 0) {
    console.error(`✖ ${title} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${title} (${seconds}s)`);
}

ensureGenerated();
const { DATABASE_URL, ...envWithoutDb } = process.env;
const pgUrl = process.env.TEST_DATABASE_URL ?? DATABASE_URL;

// The PGlite run must not inherit DATABASE_URL, or the app code under test would use it.
run("unit and integration tests on PGlite", bin("vitest"), ["run"], { ...envWithoutDb, DATABASE_URL: "" });

if (pgUrl) {
  run("integration tests on PostgreSQL", bin("vitest"), ["run", ".int.test.ts"], {
    DATABASE_URL: "",
    TEST_DATABASE_URL: pgUrl,
    REPRISE_TEST_DB: "postgres",
  });
} else {
  console.log("\n(skipping the PostgreSQL run: set TEST_DATABASE_URL=postgresql://… to include it)");
}

if (fs.existsSync(path.join(root, "sdk", "package.json")) && JSON.parse(fs.readFileSync(path.join(root, "sdk", "package.json"), "utf8")).scripts?.test) {
  run("SDK tests", "npm", ["test", "--silent", "-w", "sdk"], { DATABASE_URL: "" });
}

const hasE2e = fs.existsSync(path.join(root, "e2e")) && fs.readdirSync(path.join(root, "e2e")).some((f) => f.endsWith(".spec.ts"));
if (hasE2e) {
  run("end-to-end tests (Playwright, Chromium)", bin("playwright"), ["test"], { DATABASE_URL: "" });
}
