// The README's promise, tested as a user runs it: `npm start` after `npm run build` serves /api/health on the
// embedded database with no other setup and without building again; on PostgreSQL, two instances starting
// together on one empty database both come up and apply each migration exactly once. A server started while
// its database is unreachable or refuses connections waits for it, answering meanwhile: health 503
// "starting", the APIs 503 with Retry-After, the console a waiting page (docs/operations.md, "Starting").
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain ESM script without types
import { serverCommand } from "../../scripts/start.mjs";
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

  it("npm start after npm run build serves /api/health on the embedded database, without building again", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-start-"));
    const port = await freePort();
    // buildApp ran `npm run build` if the sources changed since the last build: npm start trusts that build.
    const child = startProcess("npm", ["start", "--silent"], { PORT: String(port), REPRISE_DATA_DIR: dataDir, DATABASE_URL: "" });
    let output = "";
    child.stderr?.on("data", (d) => (output += d));
    expect(await waitHealthy(port)).toEqual({ status: "ok" });
    expect(fs.existsSync(path.join(dataDir, "reprise.pid"))).toBe(true);
    expect(output).not.toMatch(/building the app/);
  });

  /** Polls `url` until it answers at all (the server listens), and returns that answer. */
  async function firstAnswer(url: string, check: (res: Response) => Promise<boolean> | boolean = () => true): Promise<Response> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch(() => null);
      if (res && (await check(res.clone()))) return res;
      if (Date.now() > deadline) throw new Error(`no answer from ${url}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** What a server waiting for its database answers on each surface. */
  async function expectWaitingAnswers(port: number): Promise<void> {
    const base = `http://127.0.0.1:${port}`;
    const health = await firstAnswer(`${base}/api/health`, async (res) => (await res.json().catch(() => null))?.database === "unreachable");
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: "starting", database: "unreachable" });
    expect(Number(health.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const [url, init] of [
      ["/api/sdk/whoami", {}],
      ["/api/sdk/externalSpans", { method: "POST", body: "{}" }],
      ["/mcp", { method: "POST", body: "{}" }],
      ["/v1/traces", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }],
    ] as const) {
      const res = await fetch(`${base}${url}`, { ...init, signal: AbortSignal.timeout(30_000) });
      expect(res.status, url).toBe(503);
      expect(Number(res.headers.get("retry-after")), url).toBeGreaterThan(0);
      expect(await res.json(), url).toMatchObject({ code: "service_unavailable" });
    }
    const trpc = await fetch(`${base}/api/trpc/session.me`, { signal: AbortSignal.timeout(30_000) });
    expect(trpc.status).toBe(503);
    expect((await trpc.json()).error.json.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", appCode: "service_unavailable" });
    const page = await fetch(`${base}/traces`, { signal: AbortSignal.timeout(30_000) });
    expect(page.status).toBe(503);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/Reprise is starting/);
  }

  /** A TCP relay from a port of our own to PostgreSQL: the database "comes up" when it starts. */
  function relayTo(target: URL, port: number): Promise<net.Server> {
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      const close = () => (client.destroy(), upstream.destroy());
      client.on("error", close).on("close", close);
      upstream.on("error", close).on("close", close);
    });
    return new Promise((resolve) => relay.listen(port, "127.0.0.1", () => resolve(relay)));
  }

  it("waits for an unreachable database, answering meanwhile, and serves once it is up", async () => {
    const [port, databasePort] = [await freePort(), await freePort()];
    const database = pgUrl ? await createEmptyPostgresDatabase() : undefined;
    const url = new URL(database?.url ?? "postgresql://postgres@127.0.0.1/reprise");
    const target = new URL(url);
    url.port = String(databasePort);
    const [node, args] = serverCommand({ DATABASE_URL: url.toString() }) as [string, string[]];
    const child = startProcess(node, args, { DATABASE_URL: url.toString(), PORT: String(port) });
    let relay: net.Server | undefined;
    try {
      await expectWaitingAnswers(port);
      expect(child.exitCode).toBeNull();
      if (!database) return;
      relay = await relayTo(target, databasePort);
      expect(await waitHealthy(port)).toEqual({ status: "ok" });
    } finally {
      stopProcessGroup(child);
      relay?.close();
      await new Promise((r) => setTimeout(r, 500));
      await database?.drop();
    }
  });

  it.runIf(pgUrl)("waits for a database that refuses connections (ALLOW_CONNECTIONS false) and serves once it accepts them", async () => {
    const database = await createEmptyPostgresDatabase();
    const name = new URL(database.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      const port = await freePort();
      const [node, args] = serverCommand({ DATABASE_URL: database.url }) as [string, string[]];
      const child = startProcess(node, args, { DATABASE_URL: database.url, PORT: String(port) });
      await expectWaitingAnswers(port);
      expect(child.exitCode).toBeNull();
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      expect(await waitHealthy(port)).toEqual({ status: "ok" });
    } finally {
      for (const child of children.splice(0)) stopProcessGroup(child);
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin.end();
      await new Promise((r) => setTimeout(r, 500));
      await database.drop();
    }
  });

  it.runIf(pgUrl)("two instances on one empty PostgreSQL database both come up; migrations apply once", async () => {
    const { url, drop } = await createEmptyPostgresDatabase();
    try {
      const ports = [await freePort(), await freePort()];
      const [node, args] = serverCommand({ DATABASE_URL: url }) as [string, string[]];
      for (const port of ports) startProcess(node, args, { DATABASE_URL: url, PORT: String(port) });
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
