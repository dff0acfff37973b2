// Starts the built app (the server entry `npm start` runs, dist/server.mjs) on a fresh database for the benchmark, and watches its memory.
import { spawn, type ChildProcess } from "node:child_process";
// @ts-expect-error: a plain .mjs script without type declarations
import { serverEnv, serverNodeFlags } from "../../scripts/start.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const BENCH_API_KEY = `rp_bench_${"0123456789abcdef".repeat(3)}`;

export interface Storage {
  env: Record<string, string>;
  label: string;
  cleanup(): Promise<void>;
}

export async function pgliteStorage(): Promise<Storage> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-bench-"));
  const cleanup = async () => {
    // BENCH_KEEP_DB=1 keeps the data directory for inspection, as for PostgreSQL below; delete it by hand.
    if (process.env.BENCH_KEEP_DB) return void console.error(`kept data directory ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { env: { REPRISE_DATA_DIR: dir }, label: "PGlite", cleanup };
}

export async function postgresStorage(baseUrl: string): Promise<Storage> {
  const name = `reprise_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    label: "PostgreSQL",
    cleanup: async () => {
      // BENCH_KEEP_DB=1 keeps the databases for inspection (EXPLAIN, pg_stat_*); drop them by hand.
      if (process.env.BENCH_KEEP_DB) return void console.error(`kept database ${name}`);
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

let cluster: Promise<{ url: string; stop: () => void }> | undefined;

/**
 * A fresh database on a local Citus cluster (a coordinator and two workers on ports 9791-9793, started for the
 * run's first such database and stopped when the run ends; scripts/citus-cluster.mjs): the server distributes its
 * tables there as on any Citus database.
 */
export async function citusStorage(): Promise<Storage> {
  cluster ??= (async () => {
    // @ts-expect-error -- plain ESM script without types
    const { startCitusCluster } = await import("../../scripts/citus-cluster.mjs");
    const started = startCitusCluster({ coordinator: 9791, workers: [9792, 9793] }) as { url: string; stop: () => void };
    if (!process.env.BENCH_KEEP_DB) process.on("exit", () => started.stop());
    return started;
  })();
  const { url } = await cluster;
  const { createEmptyPostgresDatabase } = await import("../../test/postgres-databases.ts");
  const database = await createEmptyPostgresDatabase(url, true, "reprise_bench");
  return {
    env: { DATABASE_URL: database.url },
    label: "Citus (coordinator + 2 workers)",
    cleanup: async () => {
      if (process.env.BENCH_KEEP_DB) return void console.error(`kept the Citus cluster with database ${database.url}`);
      await database.drop();
    },
  };
}

export interface RunningServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startServer(root: string, port: number, storage: Storage): Promise<RunningServer> {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID")) || !fs.existsSync(path.join(root, "dist", "server.mjs"))) {
    throw new Error("No build: run `npm run build` first.");
  }
  // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server.
  // The server entry `npm start` runs, with the V8 flags and environment it gives it (scripts/start.mjs).
  const nodeArgs = [...serverNodeFlags(storage.env), ...(process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean)];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, path.join(root, "dist", "server.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      ...serverEnv({ ...process.env, ...storage.env }),
      ...storage.env,
      NODE_ENV: "production",
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      REPRISE_LOG_LEVEL: "warn",
      REPRISE_INIT_ORG_NAME: "Bench",
      REPRISE_INIT_USER_EMAIL: "bench@example.com",
      REPRISE_INIT_USER_PASSWORD: "bench bench bench",
      REPRISE_INIT_API_KEY: BENCH_API_KEY,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/sdk/whoami`, { headers: { authorization: `Bearer ${BENCH_API_KEY}` } });
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error("the server did not become ready in 120 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

/** Resident memory of a process and its descendants, in bytes (Linux /proc). */
export function treeRss(pid: number): number {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      /* exited */
    }
  }
  return total;
}

/** Samples treeRss every 50 ms; `peak()` since the last `reset()`. */
export function watchRss(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(pid));
  }, 50);
  return {
    peak: () => Math.max(peak, treeRss(pid)),
    reset: () => {
      peak = treeRss(pid);
    },
    stop: () => clearInterval(timer),
  };
}

/** CPU time (user + system, ms) of one process, from /proc/<pid>/stat; 0 once it has exited. */
function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of proc(5), utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Pids of a process and its descendants. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* exited */
    }
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}

/**
 * The CPU a server costs: its own process tree plus, on PostgreSQL, the backends serving its database
 * (found in pg_stat_activity). CPU time does not depend on how busy the rest of the box is the way
 * throughput does, so CPU per span compared with the floor's is the steadiest figure of a shared box.
 */
export function cpuMeter(pid: number, databaseUrl?: string) {
  /** pid → [CPU ms so far, whether it is a database backend]. */
  const snapshot = async (): Promise<Map<number, [number, boolean]>> => {
    const out = new Map(processTree(pid).map((p): [number, [number, boolean]] => [p, [processCpuMs(p), false]]));
    if (databaseUrl) {
      const url = new URL(databaseUrl);
      const name = url.pathname.slice(1);
      url.pathname = "/postgres";
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      try {
        const r = await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [name]);
        for (const { pid: p } of r.rows) out.set(p, [processCpuMs(p), true]);
      } finally {
        await c.end();
      }
    }
    return out;
  };
  return {
    snapshot,
    /**
     * CPU ms spent between two snapshots (a process seen only in the second counts from its start): in
     * all, and by the database backends alone (PostgreSQL; PGlite runs inside the server's process).
     */
    spent: (before: Map<number, [number, boolean]>, after: Map<number, [number, boolean]>) => {
      let total = 0;
      let database = 0;
      for (const [p, [ms, isDb]] of after) {
        const delta = Math.max(0, ms - (before.get(p)?.[0] ?? 0));
        total += delta;
        if (isDb) database += delta;
      }
      return { total, database };
    },
  };
}
