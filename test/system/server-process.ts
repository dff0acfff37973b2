// Helpers for tests that run the built server as a separate process.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
// @ts-expect-error -- plain ESM script without types
import { serverCommand } from "../../scripts/start.mjs";

const root = path.resolve(__dirname, "..", "..");

/** Runs a command to completion without blocking the test worker; resolves with its exit code and output. */
export function runToEnd(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd ?? root, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/**
 * Builds the app with `npm run build` when its sources changed since the last build, as a user does before
 * `npm start` (which must then serve that build without building again: test/system/start.system.test.ts).
 */
export async function buildApp(): Promise<void> {
  // @ts-expect-error -- plain ESM script without types
  const { isBuilt } = (await import("../../scripts/build.mjs")) as { isBuilt: () => boolean };
  if (isBuilt()) return;
  const { code, output } = await runToEnd("npm", ["run", "build", "--silent"]);
  if (code !== 0) throw new Error(`the build failed:\n${output}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls /api/health until it answers 200 (never sleeps longer than needed). */
export async function waitHealthy(port: number, timeoutMs = 120_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return res.json();
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`no healthy server on port ${port}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Ends a server started with `detached: true`, with its whole process group (npm → node → next). */
export function stopProcessGroup(child: { pid?: number } | undefined): void {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    /* already gone */
  }
}

/** A server started by `startServer`: where it listens, the API key it was seeded with, and how to end it. */
export interface TRunningServer {
  baseUrl: string;
  port: number;
  apiKey: string;
  stop(): void;
}

/**
 * Builds the app when needed and starts it as a user does (`npm start`) on a fresh embedded database, seeded by
 * the headless first run with one organization, one user and `apiKey`. Resolves once /api/health answers.
 */
export async function startServer(options: { apiKey: string; name: string; env?: NodeJS.ProcessEnv }): Promise<TRunningServer> {
  await buildApp();
  const port = await freePort();
  const slug = options.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    stdio: "ignore",
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: "",
      PORT: String(port),
      REPRISE_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `reprise-${slug}-`)),
      REPRISE_LOG_LEVEL: "warn",
      REPRISE_INIT_ORG_NAME: options.name,
      REPRISE_INIT_USER_EMAIL: `${slug}@example.com`,
      REPRISE_INIT_USER_PASSWORD: `${slug} system password`,
      REPRISE_INIT_API_KEY: options.apiKey,
      ...options.env,
    },
  });
  try {
    await waitHealthy(port);
  } catch (error) {
    stopProcessGroup(child);
    throw error;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, port, apiKey: options.apiKey, stop: () => stopProcessGroup(child) };
}

/**
 * Starts the built server entry (what `npm start` runs) in a process group of its own, on `port`, with a headless
 * first run seeding one organization named `name` whose key is `apiKey`; `env` adds to or overrides the rest
 * (DATABASE_URL or REPRISE_DATA_DIR among them). Does not wait: `waitHealthy(port)` does.
 */
export function spawnServer(port: number, options: { name: string; apiKey: string; env: Record<string, string> }): ChildProcess {
  const slug = options.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const [node, args] = serverCommand(options.env) as [string, string[]];
  return spawn(node, args, {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(port),
      REPRISE_LOG_LEVEL: "error",
      REPRISE_INIT_ORG_NAME: options.name,
      REPRISE_INIT_USER_EMAIL: `${slug}@example.com`,
      REPRISE_INIT_USER_PASSWORD: `${slug} system password`,
      REPRISE_INIT_API_KEY: options.apiKey,
      ...options.env,
    },
  });
}

