// A local Citus cluster for tests: a coordinator and two workers, each a PostgreSQL data directory in a temp
// folder on its own port, started from scratch and removed afterwards (docs/operations.md, "Citus").
//   node scripts/citus-cluster.mjs start   starts one and prints its URL (the coordinator's `postgres` database)
//   node scripts/citus-cluster.mjs stop    stops it and removes its data directories
// The coordinator's `postgres` database has the extension and the workers registered; test/harness.ts reads the
// workers from it (pg_dist_node) to create a database per test file on every node. Citus keeps its metadata per
// database, so a new database needs the extension on every node and the workers registered again.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";

export const CITUS_PORTS = { coordinator: 9701, workers: [9702, 9703] };
const STATE_FILE = path.join(os.tmpdir(), "reprise-citus-cluster.json");
export const CITUS_INSTALL_HINT =
  "install Citus with `bash ../shared/citus/install.sh` (this machine's PostgreSQL 15) or the official Citus packages for your distribution";

export function pgBin(name) {
  const bindir = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" }).stdout?.trim();
  return bindir && fs.existsSync(path.join(bindir, name)) ? path.join(bindir, name) : name;
}

function pkglibdir() {
  const r = spawnSync("pg_config", ["--pkglibdir"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Whether this machine's PostgreSQL has Citus installed (citus.so in its library folder). */
export function citusInstalled() {
  const dir = pkglibdir();
  return Boolean(dir && fs.existsSync(path.join(dir, "citus.so")));
}

/** Runs a server binary as the `postgres` user when we are root (initdb and postgres refuse root). */
export function runAsPostgres(command, args, options = {}) {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  const r = spawnSync(cmd, argv, { encoding: "utf8", ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

function psql(port, database, statement) {
  return runAsPostgres(pgBin("psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-qAtc", statement]);
}

function initNode(dir, port) {
  fs.mkdirSync(dir, { recursive: true });
  runAsPostgres(pgBin("initdb"), ["-D", dir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  fs.appendFileSync(
    path.join(dir, "postgresql.conf"),
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      "shared_preload_libraries = 'citus'",
      "wal_level = logical",
      "max_prepared_transactions = 100",
      "max_connections = 300",
      "fsync = off",
      "synchronous_commit = off",
      "full_page_writes = off",
      "shared_buffers = 64MB",
      "citus.shard_count = 8",
      "",
    ].join("\n"),
  );
  runAsPostgres(pgBin("pg_ctl"), ["-D", dir, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"]);
}

/**
 * Starts a coordinator and its workers in a fresh temp folder; returns the coordinator's URL and a stopper.
 * Ports default to 9701 (coordinator), 9702 and 9703 (workers).
 */
export function startCitusCluster(ports = CITUS_PORTS) {
  if (!citusInstalled()) throw new Error(`Citus is not installed: ${CITUS_INSTALL_HINT}`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-citus-"));
  fs.chmodSync(base, 0o755);
  if (process.getuid?.() === 0) spawnSync("chown", ["postgres:postgres", base]);
  const nodes = [{ port: ports.coordinator, dir: path.join(base, "coordinator") }, ...ports.workers.map((port, i) => ({ port, dir: path.join(base, `worker${i + 1}`) }))];
  const started = [];
  const stop = () => stopNodes(base, started);
  try {
    for (const node of nodes) {
      if (process.getuid?.() === 0) {
        fs.mkdirSync(node.dir);
        spawnSync("chown", ["postgres:postgres", node.dir]);
      }
      initNode(node.dir, node.port);
      started.push(node);
    }
    for (const node of nodes) psql(node.port, "postgres", "CREATE EXTENSION IF NOT EXISTS citus");
    psql(ports.coordinator, "postgres", `SELECT citus_set_coordinator_host('127.0.0.1', ${ports.coordinator})`);
    for (const port of ports.workers) psql(ports.coordinator, "postgres", `SELECT citus_add_node('127.0.0.1', ${port})`);
  } catch (error) {
    stop();
    throw error;
  }
  fs.writeFileSync(STATE_FILE, JSON.stringify({ base, nodes: started }));
  return { url: `postgresql://postgres@127.0.0.1:${ports.coordinator}/postgres`, base, stop };
}

/**
 * Starts one more Citus node (a worker to add to a cluster) in a fresh temp folder on `port`; returns its URL (the
 * `postgres` database, with the extension) and a stopper. The caller registers it with citus_add_node.
 */
export function startCitusNode(port) {
  if (!citusInstalled()) throw new Error(`Citus is not installed: ${CITUS_INSTALL_HINT}`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-citus-node-"));
  fs.chmodSync(base, 0o755);
  const node = { port, dir: path.join(base, "worker") };
  if (process.getuid?.() === 0) {
    fs.mkdirSync(node.dir);
    spawnSync("chown", ["postgres:postgres", base, node.dir]);
  }
  try {
    initNode(node.dir, port);
    psql(port, "postgres", "CREATE EXTENSION IF NOT EXISTS citus");
  } catch (error) {
    stopNodes(base, [node]);
    throw error;
  }
  return { url: `postgresql://postgres@127.0.0.1:${port}/postgres`, stop: () => stopNodes(base, [node]) };
}

function stopNodes(base, nodes) {
  for (const node of nodes) {
    try {
      runAsPostgres(pgBin("pg_ctl"), ["-D", node.dir, "-m", "immediate", "-w", "stop"]);
    } catch {
      // already stopped
    }
  }
  fs.rmSync(base, { recursive: true, force: true });
  if (fs.existsSync(STATE_FILE) && JSON.parse(fs.readFileSync(STATE_FILE, "utf8")).base === base) fs.rmSync(STATE_FILE);
}

/** Stops the cluster `start` left running (its folder is recorded in the temp folder). */
export function stopRecordedCluster() {
  if (!fs.existsSync(STATE_FILE)) return false;
  const { base, nodes } = JSON.parse(fs.readFileSync(STATE_FILE, "utf8"));
  stopNodes(base, nodes);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const command = process.argv[2];
  if (command === "start") {
    const started = Date.now();
    const cluster = startCitusCluster();
    console.log(`${cluster.url}  (started in ${((Date.now() - started) / 1000).toFixed(1)}s; stop with: node scripts/citus-cluster.mjs stop)`);
  } else if (command === "stop") {
    console.log(stopRecordedCluster() ? "stopped" : "no cluster recorded");
  } else {
    console.error("usage: node scripts/citus-cluster.mjs start|stop");
    process.exit(2);
  }
}
