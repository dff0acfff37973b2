// `npm test`: every suite that needs no network.
//   0. ESLint: the layers and the feature order of docs/architecture.md, the database-access rule
//   1. unit + integration tests on embedded PGlite (Vitest)
//   2. the integration tests again on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set
//   2b. the integration tests again on a Citus cluster: TEST_CITUS_URL's, or a local one scripts/citus-cluster.mjs
//      starts (ports 9701-9703) when this machine's PostgreSQL has Citus installed
//   beside 1-2b, one after another, their output printed when they end: the SDK's tests (npm workspace
//      sdks/typescript/), the other SDKs' own suites (sdks/<language>/reprise-sdk.json, when their toolchain is
//      installed) and the SDK conformance scenarios (sdks/conformance/, against every SDK whose toolchain is installed)
//   3. the build, then the Playwright journeys in Chromium (when e2e/ has specs) and beside them the system tests:
//      the built server, started as `npm start` does (on Citus too, when a cluster is at hand)
// Stops at the first failing stage and exits non-zero; ends with one "N passed, N failed" line.
import fs from "node:fs";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { ensureGenerated } from "./ensure-generated.mjs";
import { CITUS_INSTALL_HINT, citusInstalled, startCitusCluster } from "./citus-cluster.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const reports = path.join(root, "test-results", "reports");
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };

/** Adds a stage's counts from its JSON report (Vitest's jest-style report, or Playwright's stats). */
function count(reportFile) {
  if (!fs.existsSync(reportFile)) return;
  const r = JSON.parse(fs.readFileSync(reportFile, "utf8"));
  if (r.stats && "expected" in r.stats) {
    totals.passed += r.stats.expected + r.stats.flaky;
    totals.failed += r.stats.unexpected;
    totals.skipped += r.stats.skipped;
  } else {
    totals.passed += r.numPassedTests ?? 0;
    totals.failed += r.numFailedTests ?? 0;
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
}

const runStarted = Date.now();
function summary() {
  const minutes = ((Date.now() - runStarted) / 60_000).toFixed(1);
  console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (${minutes} min)`);
}

/** Spawns a stage; resolves with its exit status. `log` sends its output to a file instead of this terminal. */
function spawnStage(command, args, env, cwd, log) {
  return new Promise((resolve) => {
    const out = log ? fs.openSync(log, "w") : "inherit";
    const child = spawn(command, args, { cwd, stdio: ["ignore", out, out], env: { ...process.env, ...env }, detached: Boolean(log) });
    if (log) {
      fs.closeSync(out);
      besideChildren.add(child);
    }
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => {
      besideChildren.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** The stages running beside the main line (their own process groups), stopped if the run ends early. */
const besideChildren = new Set();
process.on("exit", () => {
  for (const child of besideChildren) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

function fail(title, seconds, status) {
  console.error(`✖ ${title} failed after ${seconds}s`);
  if (totals.failed === 0) totals.failed = 1;
  summary();
  process.exit(status || 1);
}

/** The machine's CPU time so far, busy and total, from /proc/stat (Linux); undefined elsewhere. */
function cpuTimes() {
  try {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3] + (fields[4] ?? 0);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** ", CPU 73% busy": how much of the machine a stage kept busy (what decides whether another can run beside it). */
function cpuBusy(since) {
  const now = cpuTimes();
  if (!since || !now || now.total === since.total) return "";
  return `, CPU ${Math.round((100 * (now.busy - since.busy)) / (now.total - since.total))}% busy`;
}

/** Runs a stage in the main line, its output on this terminal; exits on failure. */
async function run(title, command, args, env, reportFile, cwd = root) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const cpu = cpuTimes();
  const status = await spawnStage(command, args, env, cwd, null);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (reportFile) count(reportFile);
  if (status !== 0) fail(title, seconds, status);
  console.log(`✔ ${title} (${seconds}s${cpuBusy(cpu)})`);
}

/**
 * Runs stages one after another beside the main line, each one's output kept in a log file and printed once it
 * ends. For the stages that spend most of their time waiting (the SDK suites and the conformance scenarios wait on
 * retries, deadlines and their child processes: ~100 s of CPU in a 250 s stage on two cores), so they overlap the
 * CPU-bound database stages instead of adding their length to the run. Returns a function that waits for them all
 * and exits on the first failure.
 */
function runBeside(stages, beside = "the database stages") {
  const results = [];
  const done = (async () => {
    for (const stage of stages) {
      const log = path.join(reports, `${stage.name}.log`);
      const started = Date.now();
      const status = await spawnStage(stage.command, stage.args, stage.env, stage.cwd ?? root, log);
      results.push({ ...stage, log, status, seconds: ((Date.now() - started) / 1000).toFixed(0) });
      if (status !== 0) return;
    }
  })();
  return async () => {
    await done;
    for (const stage of results) {
      console.log(`\n▶ ${stage.title} (ran beside ${beside}; its output follows)`);
      process.stdout.write(fs.readFileSync(stage.log, "utf8"));
      if (stage.reportFile) count(stage.reportFile);
      else if (stage.status === 0) totals.passed += 1;
      if (stage.status !== 0) fail(stage.title, stage.seconds, stage.status);
      console.log(`✔ ${stage.title} (${stage.seconds}s)`);
    }
  };
}

const vitestArgs = (name) => ["--reporter=default", "--reporter=json", `--outputFile.json=${path.join(reports, `${name}.json`)}`];

ensureGenerated();
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
// No stage may inherit DATABASE_URL, or the app code under test would use it instead of its own database.
const noDb = { DATABASE_URL: "" };

await run("lint (ESLint: layers, feature order, database access)", bin("eslint"), ["."], noDb);

// Beside the database stages: the SDKs' own suites and the conformance scenarios (runBeside says why).
const beside = [];
const sdkPackage = path.join(root, "sdks", "typescript", "package.json");
if (fs.existsSync(sdkPackage) && JSON.parse(fs.readFileSync(sdkPackage, "utf8")).scripts?.test) {
  beside.push({ name: "sdk", title: "SDK tests", command: "npm", args: ["test", "--silent", "-w", "sdks/typescript", "--", ...vitestArgs("sdk")], env: noDb, reportFile: path.join(reports, "sdk.json") });
}

// The other SDKs (sdks/<language>/reprise-sdk.json): each names the toolchain it needs and its test command,
// run in its own folder. A missing toolchain skips that SDK with a line saying what to install.
const sdksDir = path.join(root, "sdks");
for (const name of fs.existsSync(sdksDir) ? fs.readdirSync(sdksDir).sort() : []) {
  const manifestFile = path.join(sdksDir, name, "reprise-sdk.json");
  if (!fs.existsSync(manifestFile)) continue;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
  if (!manifest.test) continue;
  const missing = (manifest.requires ?? []).filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
  if (missing.length > 0) {
    console.log(`\n(skipping the ${manifest.title} tests: ${missing.join(", ")} not found; install with \`${manifest.install}\`)`);
    continue;
  }
  beside.push({ name: `sdk-${name}`, title: `${manifest.title} tests`, command: manifest.test[0], args: manifest.test.slice(1), env: { ...noDb, ...(manifest.env ?? {}) }, cwd: path.join(sdksDir, name) });
}

// The conformance scenarios run against every SDK with a `conformanceDriver`; the runner itself skips an SDK
// whose toolchain is missing, and this line says so up front.
const conformanceConfig = path.join(root, "sdks", "conformance", "vitest.config.ts");
if (fs.existsSync(conformanceConfig)) {
  for (const name of fs.readdirSync(sdksDir).sort()) {
    const manifestFile = path.join(sdksDir, name, "reprise-sdk.json");
    if (!fs.existsSync(manifestFile)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
    if (!manifest.conformanceDriver) continue;
    const missing = (manifest.requires ?? []).filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
    if (missing.length > 0) {
      console.log(`\n(skipping the ${manifest.title} conformance scenarios: ${missing.join(", ")} not found; install with \`${manifest.install}\`)`);
    }
  }
  beside.push({ name: "conformance", title: "SDK conformance", command: bin("vitest"), args: ["run", "--config", conformanceConfig, ...vitestArgs("conformance")], env: noDb, reportFile: path.join(reports, "conformance.json") });
}
if (beside.length > 0) console.log(`\n▶ beside the database stages: ${beside.map((s) => s.title).join(", ")} (output shown when they end)`);
const besideDone = runBeside(beside);

await run("unit and integration tests on PGlite", bin("vitest"), ["run", ...vitestArgs("pglite")], noDb, path.join(reports, "pglite.json"));

if (pgUrl) {
  await run(
    "integration tests on PostgreSQL",
    bin("vitest"),
    ["run", ".int.test.ts", ...vitestArgs("postgres")],
    { ...noDb, TEST_DATABASE_URL: pgUrl, REPRISE_TEST_DB: "postgres" },
    path.join(reports, "postgres.json"),
  );
} else {
  console.log("\n(skipping the PostgreSQL run: set TEST_DATABASE_URL=postgresql://… to include it)");
}

let citusUrl = process.env.TEST_CITUS_URL;
if (!citusUrl && citusInstalled()) {
  console.log("\n▶ starting a local Citus cluster (coordinator :9701, workers :9702 :9703)");
  const started = Date.now();
  const cluster = startCitusCluster();
  // run() exits the process on a failing stage; the cluster goes with it.
  process.on("exit", () => cluster.stop());
  console.log(`✔ Citus cluster started (${((Date.now() - started) / 1000).toFixed(0)}s)`);
  citusUrl = cluster.url;
}
if (citusUrl) {
  await run(
    "integration tests on Citus (coordinator + workers)",
    bin("vitest"),
    ["run", ".int.test.ts", ...vitestArgs("citus")],
    { ...noDb, TEST_CITUS_URL: citusUrl, REPRISE_TEST_DB: "citus" },
    path.join(reports, "citus.json"),
  );
} else {
  console.log(`\n(skipping the Citus run: ${CITUS_INSTALL_HINT}, or set TEST_CITUS_URL=postgresql://… to a cluster's coordinator)`);
}

await besideDone();

// The app the journeys and the system tests start, built once here (a no-op when `npm run build` is current), so
// the two stages below can run side by side without both building it.
await run("build (the app the journeys and the system tests start)", process.execPath, [path.join(root, "scripts", "start.mjs"), "--build-only"], noDb);

// The system tests run beside the Playwright journeys: both mostly wait on servers, browsers and clients (each
// kept about three quarters of the machine busy alone), and every server they start takes a port of its own.
// Then the suites of real clients (the SDKs in every language, the official MCP client), two instances scaling out
// and the cluster growing by a worker while it ingests, against the built server on the local Citus cluster: its
// tables distributed, as an operator would run it.
const systemStages = [{
  name: "system",
  title: "system tests (the built server, started as npm start does)",
  command: bin("vitest"),
  args: ["run", "--config", "vitest.system.config.ts", ...vitestArgs("system")],
  env: { ...noDb, ...(pgUrl ? { TEST_DATABASE_URL: pgUrl } : {}) },
  reportFile: path.join(reports, "system.json"),
}];
if (citusUrl) {
  systemStages.push({
    name: "system-citus",
    title: "system tests on Citus (SDKs, MCP, scale-out, rebalance)",
    command: bin("vitest"),
    args: ["run", "--config", "vitest.system.config.ts", "test/system/sdk-contract", "test/system/python-sdk", "test/system/go-sdk", "test/system/ruby-sdk", "test/system/mcp", "test/system/scale-out", "test/system/rebalance", ...vitestArgs("system-citus")],
    env: { ...noDb, TEST_CITUS_URL: citusUrl, REPRISE_TEST_DB: "citus" },
    reportFile: path.join(reports, "system-citus.json"),
  });
}
const e2eDir = path.join(root, "e2e");
const hasJourneys = fs.existsSync(e2eDir) && fs.readdirSync(e2eDir).some((f) => f.endsWith(".spec.ts"));
const systemDone = runBeside(systemStages, hasJourneys ? "the Playwright journeys" : "nothing");
if (hasJourneys) {
  await run(
    "end-to-end tests (Playwright, Chromium)",
    bin("playwright"),
    ["test", "--reporter=list,json"],
    { ...noDb, PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, "e2e.json"), ...(pgUrl ? { TEST_DATABASE_URL: pgUrl } : {}) },
    path.join(reports, "e2e.json"),
  );
}
await systemDone();

summary();
