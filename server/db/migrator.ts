// Applies prisma/migrations/*/migration.sql in name order, identically on PGlite and PostgreSQL, each once, under a
// cluster-wide advisory lock held by one session for the whole run, so two app instances starting together apply
// each migration exactly once (the second waits, then sees it applied). A migration runs in its own transaction,
// unless its first line is NO_TRANSACTION_MARKER: then its statements run one by one outside any transaction, as
// CREATE INDEX CONCURRENTLY must (docs/operations.md, "Starting"). On Citus, every table is then distributed
// (citus.ts), so a table a migration creates is distributed on the first start after it (docs/operations.md, "Citus").
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { sql } from "./sql.ts";
import type { SqlDatabase, SqlSession } from "./sql.ts";
import { MIGRATION_LOCK_ID } from "./migration-lock.ts";
import { distributeOnCitus } from "./citus.ts";

export { MIGRATION_LOCK_ID };

/**
 * The first line of a migration whose statements run outside a transaction, each on its own: an index built
 * CONCURRENTLY lets ingestion go on while it is built. Such a migration is recorded once all its statements ran, so
 * an interrupted one runs again from its start: each statement must be safe to repeat (IF EXISTS, IF NOT EXISTS, or
 * dropping what an earlier attempt left), and the statements are split at a semicolon that ends a line (no function
 * bodies).
 */
export const NO_TRANSACTION_MARKER = "-- reprise:no-transaction";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function defaultMigrationsDir(): string {
  return path.resolve(process.cwd(), "prisma", "migrations");
}

export function readMigrations(dir: string = defaultMigrationsDir()): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const text = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql: text, checksum: createHash("sha256").update(text).digest("hex") };
    });
}

/** Whether a migration runs outside a transaction (NO_TRANSACTION_MARKER). */
export function runsOutsideTransaction(migration: Migration): boolean {
  return migration.sql.split("\n", 1)[0].trim() === NO_TRANSACTION_MARKER;
}

/** A no-transaction migration's statements: comment lines dropped, split at each semicolon that ends a line. */
export function statementsOf(script: string): string[] {
  return script
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n")
    .split(/;[ \t]*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/** Whether statementsOf can split a script: no dollar-quoted body, whose semicolons are not the script's. */
function splittable(script: string): boolean {
  return !/\$[A-Za-z_]*\$/.test(script);
}

/** How long to wait between tries for the migration lock. */
const LOCK_POLL_MS = 200;

/**
 * Takes the migration lock for this session, waiting for another instance to finish. It is tried, not waited for in
 * a statement: a session waiting inside a statement holds a snapshot, and CREATE INDEX CONCURRENTLY, run by the
 * instance holding the lock, waits for every older snapshot to end; each would wait for the other.
 */
async function lockMigrations(session: SqlSession): Promise<void> {
  for (;;) {
    const [{ locked }] = await session.query<{ locked: boolean }>(sql`SELECT pg_try_advisory_lock(${MIGRATION_LOCK_ID}) AS locked`);
    if (locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/**
 * Applies pending migrations, then on Citus distributes what is not distributed yet; returns the names it applied.
 * `distribute: false` leaves the tables as they are (a test playing a version of Reprise from before distribution).
 */
export async function migrate(db: SqlDatabase, migrations: Migration[] = readMigrations(), options: { distribute?: boolean } = {}): Promise<string[]> {
  const applied = await db.session(async (session) => {
    await lockMigrations(session);
    // Released before the session goes back to the pool; should this throw, the session is closed instead, which
    // releases it too (SqlDatabase.session).
    const names = await applyPending(session, migrations);
    await session.query(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
    return names;
  });
  if (options.distribute !== false) await distributeOnCitus(db);
  return applied;
}

async function applyPending(session: SqlSession, migrations: Migration[]): Promise<string[]> {
  await session.exec(`CREATE TABLE IF NOT EXISTS reprise_migrations (
    name text PRIMARY KEY,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: string[] = [];
  for (const migration of migrations) {
    const rows = await session.query<{ checksum: string }>(sql`SELECT checksum FROM reprise_migrations WHERE name = ${migration.name}`);
    if (rows.length > 0) {
      if (rows[0].checksum !== migration.checksum) {
        throw new Error(`Migration ${migration.name} was changed after it was applied. Add a new migration instead of editing an applied one.`);
      }
      continue;
    }
    const record = sql`INSERT INTO reprise_migrations (name, checksum) VALUES (${migration.name}, ${migration.checksum})`;
    if (runsOutsideTransaction(migration)) {
      for (const statement of statementsOf(migration.sql)) await session.exec(statement);
      await session.query(record);
    } else {
      await session.transaction(async (tx) => {
        // One statement at a time: Citus sends a DDL statement on a distributed table (CREATE INDEX, say) to every
        // shard as the text it was given, and a text of several commands is refused there ("cannot insert multiple
        // commands into a prepared statement"), so an installation already distributed could not upgrade.
        for (const statement of splittable(migration.sql) ? statementsOf(migration.sql) : [migration.sql]) await tx.exec(statement);
        await tx.query(record);
      });
    }
    applied.push(migration.name);
  }
  return applied;
}

/**
 * Runs `fn` while holding the migration lock, so schema set-up that is not one of our migrations
 * (pg-boss installs its own schema on start) happens once even when several instances start together.
 * On PostgreSQL the lock is held by a transaction on one pooled connection while `fn` runs on others.
 * PGlite needs no lock (one process holds its data directory), and its single session could not run
 * `fn` beside an open transaction anyway.
 */
export async function withMigrationLock<T>(db: SqlDatabase, fn: () => Promise<T>): Promise<T> {
  if (db.kind === "pglite") return fn();
  return db.transaction(async (tx) => {
    await tx.query(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    return fn();
  });
}
