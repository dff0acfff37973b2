// `npm run admin -- copy-to` run as an operator runs it (docs/operations.md, "From laptop to cluster"): a child
// process copies an embedded data directory into an empty PostgreSQL (Citus on that run) database, stopped and while
// a server holds it, with progress on stderr and one JSON summary on stdout; a second copy into the same database
// is refused. Needs a PostgreSQL target, so it runs on the PostgreSQL and Citus runs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../server/db/client.ts";
import { migrate } from "../server/db/migrator.ts";
import { sql } from "../server/db/sql.ts";
import { setDb } from "../server/db.ts";
import { listenForAdminCommands } from "../server/auth/admin-channel.ts";
import { postExternalSpan } from "../server/ingest/ingest.http.ts";
import { spanPayload } from "../server/ingest/testing/payloads.ts";
import { call, createEmptyPostgresDatabase, createTestOrg, onCitus, onPostgres } from "../test/harness.ts";

const root = path.resolve(__dirname, "..");

const admin = (env: Record<string, string>, ...args: string[]) =>
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

async function spanCount(url: string): Promise<number> {
  const db = await openDatabase({ url, maxConnections: 1 });
  try {
    const [row] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM spans`);
    return row.n;
  } finally {
    await db.close();
  }
}

// On Citus the target's migrations distribute every table and each page is a distributed write: minutes on a busy machine.
describe.runIf(onPostgres)("admin copy-to", { timeout: onCitus ? 240_000 : 60_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-copy-to-"));
  const env = { DATABASE_URL: "", REPRISE_DATA_DIR: dir };
  const drops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    const db: Database = await openDatabase({ dataDir: dir });
    try {
      await migrate(db.sql);
      setDb(db);
      const org = await createTestOrg(db);
      for (let i = 0; i < 30; i++) {
        const res = await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId: randomUUID(), input: [`span ${i}`] }) });
        expect(res.status).toBe(200);
      }
    } finally {
      setDb(undefined);
      await db.close();
    }
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function emptyTarget(): Promise<string> {
    const { url, drop } = await createEmptyPostgresDatabase();
    drops.push(drop);
    return url;
  }

  it("copies a stopped embedded database with progress, then refuses the same target again", async () => {
    const target = await emptyTarget();
    const out = await admin(env, "copy-to", target);
    expect(out.stderr).toContain("copy-to: spans 30/30 rows (100%)");
    expect(out.code).toBe(0);
    expect(out.stdout.trim().split("\n")).toHaveLength(1);
    const summary = JSON.parse(out.stdout) as { tables: Array<{ table: string; rows: number }>; sampledSpans: number };
    expect(summary.tables.find((t) => t.table === "spans")?.rows).toBe(30);
    expect(summary.sampledSpans).toBe(30);
    expect(await spanCount(target)).toBe(30);

    const again = await admin(env, "copy-to", target);
    expect(again.code).not.toBe(0);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("the target is not empty");
  });

  it("copies the snapshot a running server writes, and the server keeps serving", async () => {
    // This test process plays the server: it holds the data directory and answers on its control channel.
    const db = await openDatabase({ dataDir: dir });
    const stop = await listenForAdminCommands(db, dir);
    try {
      const target = await emptyTarget();
      const out = await admin(env, "copy-to", target);
      expect(out.stderr).toContain("a server is running");
      expect(out.code).toBe(0);
      expect(await spanCount(target)).toBe(30);
      const [row] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM spans`);
      expect(row.n).toBe(30);
    } finally {
      await stop?.();
      await db.close();
    }
  });

  it.each([
    [[], "copy-to needs the target database's URL"],
    [["mysql://root@localhost/x"], "must start with postgresql://"],
    [["not a url"], "is not a URL"],
  ])("copy-to %j fails with %s before touching anything", async (args, message) => {
    const out = await admin(env, "copy-to", ...args);
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain(message);
  });
});

describe.runIf(!onPostgres)("admin snapshot", () => {
  it("copies the embedded database a server holds while it writes, into a folder that opens on its own", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-snapshot-"));
    const to = path.join(dir, "copy");
    const env = { DATABASE_URL: "", REPRISE_DATA_DIR: path.join(dir, "data") };
    const db = await openDatabase({ dataDir: env.REPRISE_DATA_DIR });
    const stop = await listenForAdminCommands(db, env.REPRISE_DATA_DIR);
    try {
      await migrate(db.sql);
      setDb(db);
      const org = await createTestOrg(db);
      const post = (i: number) => call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId: randomUUID(), input: [`span ${i}`] }) });
      for (let i = 0; i < 10; i++) await post(i);
      // The server keeps writing while the snapshot is taken.
      const writing = Promise.all(Array.from({ length: 20 }, (_, i) => post(10 + i)));
      const out = await admin(env, "snapshot", "--to", to);
      await writing;
      expect(out.stderr).toBe("");
      expect(JSON.parse(out.stdout)).toEqual({ to });
      expect(fs.existsSync(path.join(to, "admin.sock"))).toBe(false);
      const again = await admin(env, "snapshot", "--to", to);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain("already exists");
    } finally {
      setDb(undefined);
      await stop?.();
      await db.close();
    }
    const copy = await openDatabase({ dataDir: to });
    try {
      const [row] = await copy.sql.query<{ n: number; whole: boolean }>(sql`
        SELECT count(*)::int AS n, bool_and(t.id IS NOT NULL) AS whole FROM spans s LEFT JOIN traces t ON t.organization_id = s.organization_id AND t.id = s.trace_id`);
      expect(row.n).toBeGreaterThanOrEqual(10);
      expect(row.n).toBeLessThanOrEqual(30);
      expect(row.whole).toBe(true);
    } finally {
      await copy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
