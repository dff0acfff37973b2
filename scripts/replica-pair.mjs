// A PostgreSQL primary and its streaming standby for the read-replica tests (docs/scaling.md, "4. A read replica
// for the console"): two data directories in a temp folder on ports of their own, the standby made by
// pg_basebackup from the primary and replaying its log. Never touches the server on 5432.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { pgBin, runAsPostgres } from "./citus-cluster.mjs";

/** Whether this machine has PostgreSQL's server programs (initdb, pg_basebackup). */
export function postgresServerInstalled() {
  return fs.existsSync(pgBin("initdb")) && fs.existsSync(pgBin("pg_basebackup"));
}

function ownedFolder(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) spawnSync("chown", ["postgres:postgres", dir]);
}

const ctl = (dir, ...args) => runAsPostgres(pgBin("pg_ctl"), ["-D", dir, "-l", path.join(dir, "server.log"), "-w", "-t", "60", ...args]);

/** Starts a primary on `ports.primary` and a standby of it on `ports.standby`; returns their URLs and controls. */
export function startReplicaPair(ports) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-replica-"));
  fs.chmodSync(base, 0o755);
  const primary = path.join(base, "primary");
  const standby = path.join(base, "standby");
  const started = [];
  const stop = () => {
    for (const dir of started.reverse()) {
      try {
        ctl(dir, "-m", "immediate", "stop");
      } catch {
        // already stopped
      }
    }
    fs.rmSync(base, { recursive: true, force: true });
  };
  try {
    ownedFolder(primary);
    runAsPostgres(pgBin("initdb"), ["-D", primary, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
    fs.appendFileSync(path.join(primary, "postgresql.conf"), [
      `port = ${ports.primary}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${primary}'`,
      "wal_level = replica", "max_wal_senders = 4", "fsync = off", "shared_buffers = 32MB", "",
    ].join("\n"));
    fs.appendFileSync(path.join(primary, "pg_hba.conf"), "host replication all 127.0.0.1/32 trust\n");
    ctl(primary, "start");
    started.push(primary);
    ownedFolder(standby);
    runAsPostgres(pgBin("pg_basebackup"), ["-h", "127.0.0.1", "-p", String(ports.primary), "-U", "postgres", "-D", standby, "-R", "-X", "stream", "--no-sync"]);
    fs.appendFileSync(path.join(standby, "postgresql.conf"), [
      `port = ${ports.standby}`, `unix_socket_directories = '${standby}'`, "hot_standby = on", "",
    ].join("\n"));
    ctl(standby, "start");
    started.push(standby);
  } catch (error) {
    stop();
    throw error;
  }
  const url = (port, database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    primaryUrl: (database) => url(ports.primary, database),
    standbyUrl: (database) => url(ports.standby, database),
    stopStandby: () => ctl(standby, "-m", "fast", "stop"),
    startStandby: () => ctl(standby, "start"),
    stop,
  };
}
