// Applies prisma/migrations/*/migration.sql in name order, identically on PGlite and PostgreSQL.
// Each migration runs in its own transaction under a cluster-wide advisory lock, so two app instances
// starting together apply each migration exactly once (the second waits, then sees it applied). On Citus, every
// table is then distributed (citus.ts), so a table a migration creates is distributed on the first start after it
// (docs/operations.md, "Citus").
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { sql } from "./sql.ts";
import type { SqlDatabase } from "./sql.ts";
import { MIGRATION_LOCK_ID } from "./migration-lock.ts";
import { distributeOnCitus } from "./citus.ts";

export { MIGRATION_LOCK_ID };

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

/**
 * Applies pending migrations, then on Citus distributes what is not distributed yet; returns the names it applied.
 * `distribute: false` leaves the tables as they are (a test playing a version of Reprise from before distribution).
 */
export async function migrate(db: SqlDatabase, migrations: Migration[] = readMigrations(), options: { distribute?: boolean } = {}): Promise<string[]> {
  await db.transaction(async (tx) => {
    await tx.query(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS reprise_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
      const rows = await tx.query<{ checksum: string }>(
        sql`SELECT checksum FROM reprise_migrations WHERE name = ${migration.name}`,
      );
      if (rows.length > 0) {
        if (rows[0].checksum !== migration.checksum) {
          throw new Error(
            `Migration ${migration.name} was changed after it was applied. Add a new migration instead of editing an applied one.`,
          );
        }
        return false;
      }
      await tx.exec(migration.sql);
      await tx.query(
        sql`INSERT INTO reprise_migrations (name, checksum) VALUES (${migration.name}, ${migration.checksum})`,
      );
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  if (options.distribute !== false) await distributeOnCitus(db);
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
