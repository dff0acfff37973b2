// `npm start`: build when the sources changed since the last build (`npm run build`'s counts), then serve the
// built app with the server entry (dist/server.mjs, built from server/main.ts). Migrations and first-run setup
// happen inside the server process, which answers while it waits for its database.
import { spawn } from "node:child_process";
import { build, isBuilt, root, serverEntry } from "./build.mjs";

/** Builds the app unless the last build (`npm run build`'s or ours) is of the current sources. False if the build failed. */
export async function ensureBuilt({ stdio = "inherit" } = {}) {
  if (isBuilt()) return true;
  console.error("reprise: building the app (first start, or sources changed; several minutes on a small machine)…");
  return build({ stdio });
}

/**
 * V8 flags for the server process. Ingestion makes megabytes of short-lived strings per request; with
 * V8's default 16 MB semi-space much of it survived into the old generation, and garbage collection
 * took ~12% of the server's main thread (bench/README.md). A 32 MB semi-space raised PostgreSQL
 * throughput by ~15%. On the embedded database the buffer pool lives in this process too, and a quiet
 * machine's faster ingestion took the default young generation to a 630–670 MB process; a 4 MB semi-space
 * keeps it at 550–590 MB for ~3% of throughput (bench/README.md, "PGlite's memory").
 *
 * What a large request leaves in the old generation is garbage once it is answered, but V8 lets that
 * generation grow up to 4× what survived its last full collection before collecting it again: eight 8 MB
 * requests took the server 180–310 MB over its idle size. A bound on that growth keeps the process under
 * 450 MB with them: 30% on the embedded database (~70 MB over idle), 100% on PostgreSQL (~210 MB; its
 * larger young generation is collected less often). More frequent full collections cost CPU: on PostgreSQL
 * 30% took ~20% more CPU per span and 60% 10-20%, while 100% cost none that two runs could tell from V8's
 * default and kept the peak at ~407 MB; on the embedded database, whose own thread bounds throughput,
 * nothing measurable (bench/README.md, "The embedded database's ceiling with 8 MB bodies" and "The full run
 * on the current build").
 */
export function serverNodeFlags(env = process.env) {
  // --expose-gc on the embedded database: a large ingestion body is followed by a full collection
  // (server/ingest/memory-budget.ts).
  return env.DATABASE_URL ? ["--max-semi-space-size=32", "--heap-growing-percent=100"] : ["--max-semi-space-size=2", "--heap-growing-percent=30", "--expose-gc"];
}

/**
 * Environment the server process adds to its own. NODE_ENV is the server's mode (the entry sets it too, but a
 * package loaded before it reads it as it was). glibc's malloc gives each thread that allocates an arena
 * of its own and keeps what was freed in it (zlib inflates request bodies on libuv's four threads); two
 * arenas kept the server on the embedded database ~40 MB smaller under sustained ingestion at the same
 * throughput (bench/README.md, "PGlite's memory"). On the embedded database glibc's mmap threshold is fixed at
 * 128 KB: by default it rises to the largest block freed (up to 32 MB), so after the first 8 MB request body the
 * next ones came from the main heap, which fragmented and kept ~180 MB (eight 8 MB requests: glibc's heap 192 MB
 * and the process 608 MB, against 13 and 419 MB with it; bench/README.md, "Whose memory grows under sustained
 * load"). A value the user sets wins.
 */
export function serverEnv(env = process.env) {
  const embedded = env.DATABASE_URL ? {} : { MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? "131072" };
  return { MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? "2", ...embedded, NODE_ENV: "production" };
}

/**
 * The command that serves the built app on `port`: the server entry with the V8 flags above (tests that start
 * several instances, Playwright and the benchmark run it). The server reads its port from PORT, so pass that too.
 */
export function serverCommand(env = process.env) {
  return [process.execPath, [...serverNodeFlags(env), serverEntry]];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!(await ensureBuilt())) process.exit(1);
  // `--build-only`: build when needed and stop (tests that start several servers build once first).
  if (process.argv.includes("--build-only")) process.exit(0);
  const port = process.env.PORT || "3000";
  const [node, args] = serverCommand();
  const child = spawn(node, [...args, ...process.argv.slice(2)], { cwd: root, stdio: "inherit", env: { ...process.env, ...serverEnv(), PORT: port } });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
