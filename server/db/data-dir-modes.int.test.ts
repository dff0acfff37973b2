// The embedded database's folder belongs to its owner alone (docs/operations.md, "The data directory"): PGlite,
// opened for real under the usual umask 0022, leaves no file or folder that another local user can read or change,
// and an existing folder opened up to others is restricted at start with a log line.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "../env.ts";
import { openDatabase } from "./client.ts";
import { LOCK_FILE_NAME } from "./data-dir-lock.ts";
import { tightenDataDir } from "./data-dir-modes.ts";
import { sql } from "./sql.ts";

/** Every entry under `dir` (itself included) with its permission bits, symbolic links left out. */
function modes(dir: string): Map<string, { dir: boolean; mode: number }> {
  const out = new Map<string, { dir: boolean; mode: number }>();
  const visit = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    out.set(path.relative(dir, p) || ".", { dir: stat.isDirectory(), mode: stat.mode & 0o777 });
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
  return out;
}

/** The entries whose mode is not 0700 (folders) or 0600 (files). */
function loose(dir: string): string[] {
  return [...modes(dir)].filter(([, e]) => e.mode !== (e.dir ? 0o700 : 0o600)).map(([p, e]) => `${p} ${e.mode.toString(8)}`);
}

describe("the embedded database's folder modes", () => {
  let root: string;
  let previousUmask: number;
  const previousLevel = process.env.REPRISE_LOG_LEVEL;

  beforeAll(() => {
    previousUmask = process.umask(0o022);
    root = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-modes-"));
    process.env.REPRISE_LOG_LEVEL = "warn";
    resetEnvCache();
  });
  afterAll(() => {
    process.umask(previousUmask);
    fs.rmSync(root, { recursive: true, force: true });
    if (previousLevel === undefined) delete process.env.REPRISE_LOG_LEVEL;
    else process.env.REPRISE_LOG_LEVEL = previousLevel;
    resetEnvCache();
  });
  afterEach(() => vi.restoreAllMocks());

  /** Opens the database in `dir`, runs a statement that writes, closes it; returns what was logged. */
  async function openAndClose(dir: string): Promise<string> {
    let logged = "";
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      logged += String(chunk);
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    });
    const db = await openDatabase({ dataDir: dir });
    try {
      await db.sql.query(sql`CREATE TABLE IF NOT EXISTS modes_probe (x int)`);
      expect(loose(dir), "while open").toEqual([]);
    } finally {
      await db.close();
    }
    return logged;
  }

  it("creates a new folder 0700 with every file 0600 under umask 0022, and logs nothing", async () => {
    const dir = path.join(root, "nested", "data");
    const logged = await openAndClose(dir);
    const entries = modes(dir);
    expect(entries.get("PG_VERSION")).toEqual({ dir: false, mode: 0o600 });
    expect(entries.get("global")).toEqual({ dir: true, mode: 0o700 });
    expect(entries.size).toBeGreaterThan(500);
    expect(loose(dir)).toEqual([]);
    expect(fs.statSync(path.join(root, "nested")).mode & 0o777).toBe(0o700);
    expect(logged).not.toContain("restricted");
  });

  it("restricts an existing folder that others could read or change, and logs it", async () => {
    const dir = path.join(root, "nested", "data");
    for (const [p, e] of modes(dir)) fs.chmodSync(path.join(dir, p), e.dir ? 0o777 : 0o666);
    fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), "", { mode: 0o644 });
    fs.chmodSync(path.join(dir, LOCK_FILE_NAME), 0o644);
    const opened = modes(dir).size;
    const logged = await openAndClose(dir);
    expect(loose(dir)).toEqual([]);
    const line = logged.split("\n").find((l) => l.includes("restricted the embedded database's folder"));
    expect(line, logged).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: "warn", dataDir: dir, entries: opened - 1 });
  });

  it("leaves symbolic links alone and keeps tighter modes", () => {
    const dir = fs.mkdtempSync(path.join(root, "links-"));
    const outside = path.join(root, "outside.txt");
    fs.writeFileSync(outside, "x");
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(dir, "link"));
    fs.writeFileSync(path.join(dir, "read-only"), "x");
    fs.chmodSync(path.join(dir, "read-only"), 0o444);
    fs.chmodSync(dir, 0o755);
    expect(tightenDataDir(dir)).toBe(2);
    expect(fs.statSync(outside).mode & 0o777).toBe(0o644);
    expect(fs.statSync(path.join(dir, "read-only")).mode & 0o777).toBe(0o400);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });
});
