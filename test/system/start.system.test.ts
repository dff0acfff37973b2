// The README's promise, tested as a user runs it: `npm start` serves /api/health on the embedded
// database with no other setup; on PostgreSQL, two instances starting together on one empty database
// both come up and apply each migration exactly once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain ESM script without types
import { nextStartCommand } from "../../scripts/start.mjs";
import { readMigrations } from "../../server/db/migrator.ts";
import { createEmptyPostgresDatabase } from "../harness.ts";
import { buildApp, freePort, stopProcessGroup, waitHealthy } from "./server-process.ts";

const root = path.resolve(__dirname, "..", "..");
const children: ChildProcess[] = [];
const pgUrl = process.env.TEST_DATABASE_URL;

function startProcess(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, REPRISE_LOG_LEVEL: "warn", ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  child.on("exit", (code) => {
    if (code) console.error(`server exited with ${code}:\n${output}`);
  });
  children.push(child);
  return child;
}

describe("starting the server", () => {
  beforeAll(buildApp);
  afterEach(() => {
    for (const child of children.splice(0)) stopProcessGroup(child);
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
      const [node, baseArgs] = nextStartCommand(0, { DATABASE_URL: url }) as [string, string[]];
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
      for (const child of children.splice(0)) stopProcessGroup(child);
      await new Promise((r) => setTimeout(r, 500));
      await drop();
    }
  });
});
