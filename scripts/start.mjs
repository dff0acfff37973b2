// `npm start`: build when the sources changed since the last build, then serve with `next start`.
// Migrations and first-run setup happen inside the server process (instrumentation.ts).
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import { ensureGenerated } from "./ensure-generated.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const fingerprintFile = path.join(root, ".next", "reprise-build-fingerprint");
const SOURCES = ["app", "components", "server", "prisma", "proto", "instrumentation.ts", "middleware.ts", "next.config.mjs", "package-lock.json", "postcss.config.mjs"];

/** Size and mtime of every source file: cheap, and changes whenever a file does. */
function fingerprint() {
  const hash = crypto.createHash("sha256");
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (p.endsWith(`${path.sep}generated`)) return;
      for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name));
    } else if (!/\.test\.tsx?$/.test(p)) {
      hash.update(`${path.relative(root, p)}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  for (const s of SOURCES) walk(path.join(root, s));
  return hash.digest("hex");
}

// Our lockfile omits registry URLs (npm config here), which Next.js mistakes for a broken lockfile
// and tries to "patch" over the network on every build.
process.env.NEXT_IGNORE_INCORRECT_LOCKFILE ??= "1";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

/** Builds the app unless the last build is of the current sources. Returns false if the build failed. */
export function ensureBuilt({ stdio = "inherit" } = {}) {
  ensureGenerated();
  const current = fingerprint();
  const built = fs.existsSync(fingerprintFile) ? fs.readFileSync(fingerprintFile, "utf8") : "";
  if (current === built && fs.existsSync(path.join(root, ".next", "BUILD_ID"))) return true;
  console.error("reprise: building the app (first start, or sources changed)…");
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio });
  if (result.status !== 0) return false;
  fs.writeFileSync(fingerprintFile, current);
  return true;
}

/**
 * V8 flags for the server process. Ingestion makes megabytes of short-lived strings per request; with
 * V8's default 16 MB semi-space much of it survived into the old generation, and garbage collection
 * took ~12% of the server's main thread (bench/README.md). A 32 MB semi-space raised PostgreSQL
 * throughput by ~15%. On the embedded database the buffer pool lives in this process too, and a quiet
 * machine's faster ingestion took the default young generation to a 630–670 MB process; a 4 MB semi-space
 * keeps it at 550–590 MB for ~3% of throughput (bench/README.md, "PGlite's memory").
 */
export function serverNodeFlags(env = process.env) {
  return env.DATABASE_URL ? ["--max-semi-space-size=32"] : ["--max-semi-space-size=4"];
}

/**
 * Environment the server process adds to its own. glibc's malloc gives each thread that allocates an arena
 * of its own and keeps what was freed in it (zlib inflates request bodies on libuv's four threads); two
 * arenas kept the server on the embedded database ~40 MB smaller under sustained ingestion at the same
 * throughput (bench/README.md, "PGlite's memory"). A value the user sets wins.
 */
export function serverEnv(env = process.env) {
  return { MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? "2" };
}

/** The command that serves the built app (used by tests that start several instances, and the benchmark). */
export function nextStartCommand(port, env = process.env) {
  return [process.execPath, [...serverNodeFlags(env), nextBin, "start", "-p", String(port)]];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!ensureBuilt()) process.exit(1);
  // `--build-only`: build when needed and stop (tests that start several servers build once first).
  if (process.argv.includes("--build-only")) process.exit(0);
  const port = process.env.PORT || "3000";
  const [node, args] = nextStartCommand(port);
  // PORT goes to the server too: it prints the first-run address with it (server/startup.ts).
  const child = spawn(node, [...args, ...process.argv.slice(2)], { cwd: root, stdio: "inherit", env: { ...process.env, ...serverEnv(), PORT: port } });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
