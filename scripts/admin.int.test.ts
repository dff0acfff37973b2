// The admin CLI, run as operators run it: a real child process against a real database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../server/db/client.ts";
import { processStart } from "../server/db/data-dir-lock.ts";
import { authenticateApiKey } from "../server/auth/auth.service.ts";
import { adminSocketPath, listenForAdminCommands } from "../server/auth/admin-channel.ts";
import { createEmptyPostgresDatabase, onPostgres } from "../test/harness.ts";

const root = path.resolve(__dirname, "..");

describe("admin CLI", () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (onPostgres) {
      const { url, drop } = await createEmptyPostgresDatabase();
      env = { DATABASE_URL: url };
      cleanup = drop;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-admin-"));
      env = { DATABASE_URL: "", REPRISE_DATA_DIR: dir };
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(async () => cleanup());

  const admin = (...args: string[]) => {
    const result = spawnSync(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", ...args], {
      cwd: root,
      env: { ...process.env, ...env, REPRISE_LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  /** The CLI as a child process without blocking this one (which may be the server it talks to). */
  const adminAsync = (...args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", ...args], {
        cwd: root,
        env: { ...process.env, ...env, REPRISE_LOG_LEVEL: "silent" },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });

  /** Opens the CLI's database in this process (after the CLI exited) to check what it wrote. */
  async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const db = await openDatabase({ url: env.DATABASE_URL || undefined, dataDir: env.REPRISE_DATA_DIR });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  let created: { organizationId: string; userId: string; apiKey: string };

  it("create-org prints exactly one JSON object, and its key authenticates", async () => {
    const out = admin("create-org", "--name", "Acme", "--email", "Ops@Example.com", "--password", "a good password");
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout.trim().split("\n")).toHaveLength(1);
    created = JSON.parse(out.stdout);
    expect(Object.keys(created).sort()).toEqual(["apiKey", "organizationId", "userId"]);
    expect(created.apiKey).toMatch(/^rp_[A-Za-z0-9_-]{32,}$/);
    const auth = await withDb((db) => authenticateApiKey(db, `Bearer ${created.apiKey}`));
    expect(auth).toMatchObject({ organizationId: created.organizationId, userId: created.userId });
  });

  it("create-org with a taken email fails with a clear message and a non-zero exit", () => {
    const out = admin("create-org", "--name", "Other", "--email", "ops@example.com", "--password", "another password");
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain("ops@example.com already exists");
  });

  it("create-api-key prints {apiKey, scope} for an existing user (scope admin unless given), and the key authenticates", async () => {
    const out = admin("create-api-key", "--email", "ops@example.com");
    expect(out.code).toBe(0);
    const { apiKey, ...rest } = JSON.parse(out.stdout);
    expect(rest).toEqual({ scope: "admin" });
    const auth = await withDb((db) => authenticateApiKey(db, `Bearer ${apiKey}`));
    expect(auth).toMatchObject({ userId: created.userId, scope: "admin", role: "owner" });
    const scoped = JSON.parse(admin("create-api-key", "--email", "ops@example.com", "--scope", "ingest").stdout);
    expect((await withDb((db) => authenticateApiKey(db, `Bearer ${scoped.apiKey}`))).scope).toBe("ingest");
  });

  it.each([
    [["create-api-key", "--email", "nobody@example.com"], "No user with email"],
    [["create-org", "--name", "X"], "Missing --email, --password"],
    [["create-org", "--name", "X", "--email", "not-an-email", "--password", "long enough"], "--email must be an email address"],
    [["frobnicate"], 'Unknown command "frobnicate"'],
  ])("%j fails with %s", (args, message) => {
    const out = admin(...args);
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain(message);
  });

  it("reports a malformed command line without opening the database", () => {
    // A database that is not there: a command line checked first never learns it.
    const absent = path.join(os.tmpdir(), `reprise-admin-absent-${process.pid}`);
    const nowhere = { DATABASE_URL: onPostgres ? "postgresql://postgres@127.0.0.1:1/none" : "", REPRISE_DATA_DIR: absent };
    for (const [args, message] of [
      [["create-org", "--name", "X"], "Missing --email, --password"],
      [["create-org", "--name", "X", "--email", "not-an-email", "--password", "long enough"], "--email must be an email address"],
      [["create-api-key", "--email", "not-an-email"], "--email must be an email address"],
      [["create-api-key", "--email", "ops@example.com", "--scope", "root"], "--scope must be one of"],
      [["set-role", "--email", "ops@example.com", "--role", "boss"], "--role must be one of"],
    ] as const) {
      const result = spawnSync(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", ...args], {
        cwd: root,
        env: { ...process.env, ...nowhere, REPRISE_LOG_LEVEL: "silent" },
        encoding: "utf8",
      });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(/ECONNREFUSED|connect/i);
    }
    expect(fs.existsSync(absent)).toBe(false);
  });

  it.runIf(!onPostgres)("while a server holds the embedded database, sends the command to it over an owner-only socket", async () => {
    // This test process plays the server: it holds the data directory's lock and listens as start-up does.
    const db = await openDatabase({ dataDir: env.REPRISE_DATA_DIR });
    const stop = await listenForAdminCommands(db, env.REPRISE_DATA_DIR);
    try {
      expect(stop).not.toBeNull();
      expect(fs.statSync(adminSocketPath(env.REPRISE_DATA_DIR)).mode & 0o777).toBe(0o600);
      const out = await adminAsync("create-api-key", "--email", "ops@example.com", "--name", "from the CLI");
      expect(out.stderr).toBe("");
      expect(out.code).toBe(0);
      const { apiKey } = JSON.parse(out.stdout);
      expect((await authenticateApiKey(db, `Bearer ${apiKey}`)).userId).toBe(created.userId);

      const org = await adminAsync("create-org", "--name", "Second", "--email", "second@example.com", "--password", "a good password");
      expect(org.code).toBe(0);
      expect(Object.keys(JSON.parse(org.stdout)).sort()).toEqual(["apiKey", "organizationId", "userId"]);

      // Failures read as they do without a server: the message on stderr, the usage text after usage errors.
      const taken = await adminAsync("create-org", "--name", "Other", "--email", "ops@example.com", "--password", "another password");
      expect(taken.code).not.toBe(0);
      expect(taken.stdout).toBe("");
      expect(taken.stderr).toContain("ops@example.com already exists");
      const missing = await adminAsync("create-org", "--name", "X");
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain("Missing --email, --password");
      expect(missing.stderr).toContain("Usage:");
      const invalid = await adminAsync("create-org", "--name", "X", "--email", "not-an-email", "--password", "long enough");
      expect(invalid.stderr).toContain("--email must be an email address");
    } finally {
      await stop?.();
      await db.close();
    }
    expect(fs.existsSync(adminSocketPath(env.REPRISE_DATA_DIR))).toBe(false);
  });

  it.runIf(!onPostgres)("refuses to open the embedded database while another process holds it and does not answer", () => {
    const lock = path.join(env.REPRISE_DATA_DIR, "reprise.pid");
    // This test process is alive and is the one the file names (pid and start time).
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, start: processStart(process.pid), token: "test" }));
    try {
      const out = admin("create-api-key", "--email", "ops@example.com");
      expect(out.code).not.toBe(0);
      expect(out.stderr).toContain(`in use by process ${process.pid}`);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });
});
