// `npm run admin -- copy-to <postgresql-url> [--resume]` (docs/operations.md, "From laptop to cluster"): copies the
// database this CLI would use (the embedded one in REPRISE_DATA_DIR, or DATABASE_URL) into an empty PostgreSQL or
// Citus database. While a server holds the embedded database, the copy reads a snapshot the server writes on
// request (the `snapshot` command: a consistent copy of its folder), so the server keeps running; what it writes after that is not copied.
// Progress goes to stderr, the summary (one JSON object) to stdout.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../server/db/client.ts";
import { copyDatabase, type TCopyProgress } from "../server/db/copy-to.ts";
import type { getEnv } from "../server/env.ts";
import { AdminUsageError } from "../server/auth/admin-commands.ts";

type TEnv = ReturnType<typeof getEnv>;
/** Asks the live server holding the embedded database to run a command; undefined when no server holds it. */
type TAskServer = (command: string, flags: Record<string, string>) => Promise<Record<string, unknown> | undefined>;

export function checkCopyTarget(target: string | undefined, env: TEnv): string {
  if (!target) throw new AdminUsageError("copy-to needs the target database's URL: copy-to postgresql://user@host:5432/db");
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new AdminUsageError(`"${target}" is not a URL; expected postgresql://user@host:5432/db.`);
  }
  if (url.protocol !== "postgresql:" && url.protocol !== "postgres:") {
    throw new AdminUsageError(`copy-to copies into PostgreSQL or Citus: the URL must start with postgresql://, not ${url.protocol}//.`);
  }
  if (env.DATABASE_URL && new URL(env.DATABASE_URL).href === url.href) throw new AdminUsageError("The target is the database being copied (DATABASE_URL).");
  return target;
}

/** Prints each table's progress at most once a second, and its last line. */
function progressPrinter() {
  let last = 0;
  return ({ table, copied, total }: TCopyProgress) => {
    const now = Date.now();
    if (copied !== total && copied !== 0 && now - last < 1000) return;
    last = now;
    const percent = total === 0 ? 100 : Math.floor((copied / total) * 100);
    process.stderr.write(`copy-to: ${table} ${copied.toLocaleString("en")}/${total.toLocaleString("en")} rows (${percent}%)\n`);
  };
}

/** The database to copy from, and what to clean up after. */
async function openSource(env: TEnv, askServer: TAskServer): Promise<{ db: Database; done: () => Promise<void> }> {
  if (env.DATABASE_URL) {
    const db = await openDatabase({ url: env.DATABASE_URL, maxConnections: 2 });
    return { db, done: () => db.close() };
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-copy-to-"));
  const cleanup = () => fs.rmSync(scratch, { recursive: true, force: true });
  try {
    const copy = path.join(scratch, "data");
    const snapshot = await askServer("snapshot", { to: copy });
    if (!snapshot) {
      const db = await openDatabase({ dataDir: env.REPRISE_DATA_DIR });
      cleanup();
      return { db, done: () => db.close() };
    }
    process.stderr.write(`copy-to: a server is running on ${env.REPRISE_DATA_DIR}; copying the snapshot it took now\n`);
    const db = await openDatabase({ dataDir: copy });
    return { db, done: async () => { await db.close(); cleanup(); } };
  } catch (error) {
    cleanup();
    throw error;
  }
}

export async function runCopyTo(env: TEnv, target: string, resume: boolean, askServer: TAskServer): Promise<Record<string, unknown>> {
  const source = await openSource(env, askServer);
  try {
    const to = await openDatabase({ url: target, maxConnections: 2 });
    try {
      const summary = await copyDatabase(source.db.sql, to.sql, { resume, onProgress: progressPrinter() });
      if (summary.pendingJobs > 0) {
        process.stderr.write(`copy-to: ${summary.pendingJobs} background jobs were still pending in the source and were not copied (docs/operations.md, "From laptop to cluster").\n`);
      }
      return { ...summary };
    } finally {
      await to.close();
    }
  } finally {
    await source.done();
  }
}
