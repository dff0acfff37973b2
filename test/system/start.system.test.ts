// The README's promise, tested as a user runs it: `npm start` serves /api/health on the embedded
// database with no other setup; on PostgreSQL, two instances starting together on one empty database
// both come up and apply each migration exactly once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import { spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain ESM script without types
import { ensureBuilt, nextStartCommand } from "../../scripts/start.mjs";
import { readMigrations } from "../../server/db/migrator.ts";
import { createEmptyPostgresDatabase } from "../harness.ts";

const root = path.resolve(__dirname, "..", "..");
const children: ChildProcess[] = [];
const pgUrl = process.env.TEST_DATABASE_URL;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function startProcess(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, REPRISE_LOG_LEVEL: "warn", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  child.on("exit", (code) => {
    if (code) console.error(`server exited with ${code}:\n${output}`);
  });
  children.push(child);
  return child;
}

/** Polls /api/health until it answers 200 (never sleeps longer than needed). */
async function waitHealthy(port: number, timeoutMs = 120_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return res.json();
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`no healthy server on ${port}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("starting the server", () => {
  beforeAll(() => {
    expect(ensureBuilt({ stdio: "ignore" })).toBe(true);
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGTERM");
  });

  it("npm start serves /api/health on the embedded database with no other setup", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-start-"));
    const port = await freePort();
    startProcess("npm", ["start", "--silent"], { PORT: String(port), REPRISE_DATA_DIR: dataDir, DATABASE_URL: "" });
    expect(await waitHealthy(port)).toEqual({ status: "ok" });
    expect(fs.existsSync(path.join(dataDir, "reprise.pid"))).toBe(true);
  });

  it.runIf(pgUrl)("two instances on one empty PostgreSQL database both come up; migrations apply once", async () => {
    const { url, drop } = await createEmptyPostgresDatabase();
    try {
      const ports = [await freePort(), await freePort()];
      const [node, baseArgs] = nextStartCommand(0) as [string, string[]];
      for (const port of ports) {
        startProcess(node, [...baseArgs.slice(0, -1), String(port)], { DATABASE_URL: url });
      }
      await Promise.all(ports.map((p) => waitHealthy(p)));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query("SELECT name FROM reprise_migrations ORDER BY name");
      await client.end();
      expect(rows.map((r) => r.name)).toEqual(readMigrations().map((m) => m.name));
    } finally {
      for (const child of children.splice(0)) child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 500));
      await drop();
    }
  });
});
