import { describe, expect, it } from "vitest";
import { sql, type SqlDatabase } from "./sql.ts";
import { openDatabase } from "./client.ts";
import { migrate, NO_TRANSACTION_MARKER, readMigrations, runsOutsideTransaction, statementsOf, type Migration } from "./migrator.ts";
import { createEmptyPostgresDatabase, onCitus, onPostgres } from "../../test/harness.ts";

/** An empty database of the kind the tests run on (PGlite, PostgreSQL or a Citus cluster), and how to be rid of it. */
async function emptyDatabase(): Promise<{ db: SqlDatabase; close: () => Promise<void> }> {
  if (!onPostgres) {
    const db = await openDatabase({ dataDir: "memory://" });
    return { db: db.sql, close: () => db.close() };
  }
  const { url, drop } = await createEmptyPostgresDatabase();
  const db = await openDatabase({ url });
  return { db: db.sql, close: async () => (await db.close(), await drop()) };
}

const TREE_INDEX = "spans_organization_id_trace_id_started_at_idx";
const TREE_MIGRATION = "0285_spans_tree_index";
const ROLLUP_ARRAYS_MIGRATION = "0300_rollup_latency_arrays";

/** The spans indexes by name: valid or not, and their definitions (on Citus, the coordinator's). */
const spanIndexes = async (db: SqlDatabase) =>
  new Map(
    (
      await db.query<{ name: string; valid: boolean; def: string }>(sql`
        SELECT c.relname AS name, i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) AS def
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'spans'::regclass`)
    ).map((r) => [r.name, r] as const),
  );

// Each test opens a database of its own and migrates it from nothing: seconds on a quiet machine, a minute or more on
// a loaded one (PGlite's start alone).
describe("migrator", { timeout: 240_000 }, () => {
  it("applies every migration once and records it", async () => {
    const db = await openDatabase({ dataDir: "memory://" });
    try {
      const all = readMigrations().map((m) => m.name);
      expect(await migrate(db.sql)).toEqual(all);
      expect(await migrate(db.sql)).toEqual([]);
      const rows = await db.sql.query<{ name: string }>(sql`SELECT name FROM reprise_migrations ORDER BY name`);
      expect(rows.map((r) => r.name)).toEqual(all);
    } finally {
      await db.close();
    }
  });

  it("refuses a migration edited after it was applied", async () => {
    const db = await openDatabase({ dataDir: "memory://" });
    try {
      const migrations = readMigrations();
      await migrate(db.sql, migrations);
      const edited = migrations.map((m, i) => (i === 0 ? { ...m, checksum: "changed" } : m));
      await expect(migrate(db.sql, edited)).rejects.toThrow(/was changed after it was applied/);
    } finally {
      await db.close();
    }
  });

  it("splits a migration marked to run outside a transaction into its statements", () => {
    const script = `${NO_TRANSACTION_MARKER}\n-- a comment; with a semicolon;\nDROP INDEX IF EXISTS a;\nCREATE INDEX b ON t (x)\n  INCLUDE (y);\n\nALTER TABLE t SET (z = 1);`;
    expect(runsOutsideTransaction({ name: "n", sql: script, checksum: "" })).toBe(true);
    expect(runsOutsideTransaction({ name: "n", sql: `-- ${script}`, checksum: "" })).toBe(false);
    expect(statementsOf(script)).toEqual(["DROP INDEX IF EXISTS a", "CREATE INDEX b ON t (x)\n  INCLUDE (y)", "ALTER TABLE t SET (z = 1)"]);
    expect(runsOutsideTransaction(readMigrations().find((m) => m.name === TREE_MIGRATION)!)).toBe(true);
  });

  it("runs a marked migration's statements outside a transaction (CREATE INDEX CONCURRENTLY), and records it once", async () => {
    const { db, close } = await emptyDatabase();
    try {
      const table: Migration = { name: "0001_table", sql: "CREATE TABLE concurrently_built (x int, y int);", checksum: "a" };
      const index: Migration = { name: "0002_index", sql: `${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY concurrently_built_x ON concurrently_built (x) INCLUDE (y);`, checksum: "b" };
      // The same statement in an ordinary (transactional) migration is refused: the marker is what makes it run.
      await expect(migrate(db, [table, { ...index, sql: index.sql.replace(NO_TRANSACTION_MARKER, "") }], { distribute: false })).rejects.toThrow(/transaction block/);
      expect(await migrate(db, [table, index], { distribute: false })).toEqual(["0002_index"]);
      expect(await migrate(db, [table, index], { distribute: false })).toEqual([]);
      const rows = await db.query<{ def: string }>(sql`SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'concurrently_built_x'`);
      expect(rows.map((r) => r.def)).toEqual([expect.stringContaining("INCLUDE (y)")]);
      // The session that held the lock gave it back: another transaction takes it at once.
      const [{ locked }] = await db.transaction((tx) => tx.query<{ locked: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${0x5245505249}) AS locked`));
      expect(locked).toBe(true);
    } finally {
      await close();
    }
  });

  it(`widens the spans trace index concurrently (${TREE_MIGRATION}) on a database from before it, after an interrupted attempt left an invalid index${onCitus ? ", spans distributed" : ""}`, async () => {
    const { db, close } = await emptyDatabase();
    try {
      const all = readMigrations();
      // On Citus, the tables distributed as a running installation's are.
      await migrate(db, all.filter((m) => m.name < TREE_MIGRATION));
      expect((await spanIndexes(db)).get(TREE_INDEX)?.def).not.toContain("INCLUDE");
      // What a build cut short leaves: the temporary index, marked invalid (as PostgreSQL leaves a failed CONCURRENTLY build).
      await db.exec(`CREATE INDEX spans_trace_tree_idx_building ON spans (organization_id)`);
      await db.exec(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'spans_trace_tree_idx_building'::regclass`);
      expect(await migrate(db, all)).toEqual(all.filter((m) => m.name >= TREE_MIGRATION).map((m) => m.name));
      const indexes = await spanIndexes(db);
      expect(indexes.has("spans_trace_tree_idx_building")).toBe(false);
      expect(indexes.get(TREE_INDEX)).toMatchObject({ valid: true, def: expect.stringMatching(/\(organization_id, trace_id, started_at\) INCLUDE \(id, parent_span_id, .*, source\)$/) });
      expect(indexes.get("spans_errors_by_trace_idx")).toMatchObject({ valid: true, def: expect.stringContaining("WHERE (errors IS NOT NULL)") });
      if (onCitus) {
        // Every shard's copy of the index was widened and renamed with it.
        const shards = await db.query<{ result: string }>(sql`
          SELECT result FROM run_command_on_shards('spans', $$SELECT count(*) FROM pg_indexes WHERE tablename = '%s' AND indexdef LIKE '%%INCLUDE (id, parent_span_id%%'$$)`);
        expect(shards.length).toBeGreaterThan(0);
        expect(shards.map((r) => r.result)).toEqual(shards.map(() => "1"));
      }
    } finally {
      await close();
    }
  });

  it(`drops the rollups of an installation from before ${ROLLUP_ARRAYS_MIGRATION} (one histogram row per bucket) for the job to rebuild${onCitus ? ", tables distributed" : ""}`, async () => {
    const { db, close } = await emptyDatabase();
    try {
      const all = readMigrations();
      await migrate(db, all.filter((m) => m.name < ROLLUP_ARRAYS_MIGRATION));
      const org = "00000000-0000-4000-8000-000000000300";
      const hour = "2026-09-01T10:00:00Z";
      await db.query(sql`INSERT INTO organizations (id, name) VALUES (${org}::uuid, 'Old')`);
      await db.query(sql`INSERT INTO dashboard_rollups (organization_id, hour, fn, kind, key, traces, errors)
        VALUES (${org}::uuid, ${hour}::timestamptz, 'kanswer', 'traces', '', 3, 1), (${org}::uuid, ${hour}::timestamptz, 'kanswer', 'latency', '140', 3, 0)`);
      await db.query(sql`INSERT INTO dashboard_rollup_dirty (organization_id, hour, mark) VALUES (${org}::uuid, ${hour}::timestamptz, gen_random_uuid())`);
      await db.query(sql`INSERT INTO dashboard_rollup_state (organization_id, rolled_to, watermark, updated_at)
        VALUES (${org}::uuid, '2026-09-02T00:00:00Z', '2026-09-02T01:05:00Z', '2026-09-02T01:05:00Z')`);
      expect(await migrate(db, all)).toEqual(all.filter((m) => m.name >= ROLLUP_ARRAYS_MIGRATION).map((m) => m.name));
      // Nothing rolled up: the dashboard reads the exact statements until the job has rolled the hours up again.
      expect(await db.query(sql`SELECT 1 FROM dashboard_rollups UNION ALL SELECT 1 FROM dashboard_rollup_dirty`)).toEqual([]);
      expect(await db.query(sql`SELECT rolled_to AS "rolledTo", watermark FROM dashboard_rollup_state WHERE organization_id = ${org}::uuid`)).toEqual([{ rolledTo: null, watermark: null }]);
      await db.query(sql`INSERT INTO dashboard_rollups (organization_id, hour, fn, kind, key, traces, latency_buckets, latency_counts)
        VALUES (${org}::uuid, ${hour}::timestamptz, 'kanswer', 'traces', '', 3, '{99,140}', '{1,2}')`);
      const [row] = await db.query<{ buckets: number[]; counts: number[] }>(sql`SELECT latency_buckets AS buckets, latency_counts AS counts FROM dashboard_rollups WHERE organization_id = ${org}::uuid`);
      expect(row).toEqual({ buckets: [99, 140], counts: [1, 2] });
    } finally {
      await close();
    }
  });

  it.runIf(onPostgres)("applies each migration once when two processes' worth of pools migrate at once", async () => {
    const { url, drop } = await createEmptyPostgresDatabase();
    const a = await openDatabase({ url });
    const b = await openDatabase({ url });
    try {
      const [ra, rb] = await Promise.all([migrate(a.sql), migrate(b.sql)]);
      const all = readMigrations().map((m) => m.name);
      expect([...ra, ...rb].sort()).toEqual(all.sort());
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  });
});
