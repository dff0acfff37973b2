// The admin CLI, run as operators run it: a real child process against a real database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../server/db/client.ts";
import { processStart } from "../server/db/data-dir-lock.ts";
import { authenticateApiKey } from "../server/auth/auth.service.ts";
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

  it("create-api-key prints {apiKey} for an existing user, and the key authenticates", async () => {
    const out = admin("create-api-key", "--email", "ops@example.com");
    expect(out.code).toBe(0);
    const { apiKey, ...rest } = JSON.parse(out.stdout);
    expect(rest).toEqual({});
    const auth = await withDb((db) => authenticateApiKey(db, `Bearer ${apiKey}`));
    expect(auth.userId).toBe(created.userId);
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

  it.runIf(!onPostgres)("refuses to open the embedded database while another process holds it", () => {
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
