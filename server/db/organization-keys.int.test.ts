// Every table that grows with use is keyed by organization first (docs/operations.md, "Citus"): the migration that
// moved the old single-id keys keeps every row, and the schema as a whole keeps the rule for tables added later.
import { afterEach, describe, expect, it } from "vitest";
import { raw, sql } from "./sql.ts";
import { openDatabase, type Database } from "./client.ts";
import { migrate, readMigrations } from "./migrator.ts";
import { createEmptyPostgresDatabase, onPostgres } from "../../test/harness.ts";
import { newId } from "../ids.ts";

/** Small global tables: on Citus they are reference tables, copied to every node, and need no organization key. */
export const GLOBAL_TABLES = ["organizations", "users", "api_keys", "console_sessions", "reprise_migrations"];
const KEYS_MIGRATION = "0200_organization_keys";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function emptyDatabase(): Promise<Database> {
  if (!onPostgres) {
    const db = await openDatabase({ dataDir: "memory://" });
    cleanup = () => db.close();
    return db;
  }
  const { url, drop } = await createEmptyPostgresDatabase();
  const db = await openDatabase({ url });
  cleanup = async () => {
    await db.close();
    await drop();
  };
  return db;
}

describe("organization keys", () => {
  it("the migration keeps every row of a database filled by the old schema, and its keys hold", async () => {
    const db = await emptyDatabase();
    const all = readMigrations();
    // The schema as a version of Reprise from before distribution left it (it never distributed on Citus).
    await migrate(db.sql, all.filter((m) => m.name < KEYS_MIGRATION), { distribute: false });
    const [a, b] = [newId(), newId()];
    const ids = { fn: newId(), v1: newId(), v2: newId(), exec: newId(), ds: newId(), grader: newId(), exp: newId(), run: newId(), trace: newId(), label: newId() };
    await db.sql.exec(`
      INSERT INTO organizations (id, name) VALUES ('${a}', 'A'), ('${b}', 'B');
      INSERT INTO functions (id, organization_id, name) VALUES ('${ids.fn}', '${a}', 'f');
      INSERT INTO function_versions (id, function_id, version_number, prompt) VALUES ('${ids.v1}', '${ids.fn}', 1, 'p1'), ('${ids.v2}', '${ids.fn}', 2, 'p2');
      INSERT INTO function_executions (id, organization_id, function_id) VALUES ('${ids.exec}', '${a}', '${ids.fn}');
      INSERT INTO traces (organization_id, id, source_trace_id) VALUES ('${a}', '${ids.trace}', 's');
      INSERT INTO trace_events (organization_id, trace_id, kind) VALUES ('${a}', '${ids.trace}', 'trace.completed');
      INSERT INTO datasets (id, organization_id, trace_function_key, name) VALUES ('${ids.ds}', '${a}', 'fn', 'd');
      INSERT INTO dataset_traces (dataset_id, organization_id, trace_id) VALUES ('${ids.ds}', '${a}', '${ids.trace}');
      INSERT INTO graders (id, organization_id, trace_function_key, name, kind, config) VALUES ('${ids.grader}', '${a}', 'fn', 'g', 'rule', '{}');
      INSERT INTO dataset_graders (dataset_id, grader_id) VALUES ('${ids.ds}', '${ids.grader}');
      INSERT INTO grader_reruns (id, organization_id, dataset_id, grader_ids, status) VALUES ('${ids.run}', '${a}', '${ids.ds}', '[]', 'running');
      INSERT INTO grader_rerun_items (run_id, organization_id, trace_id, grader_id) VALUES ('${ids.run}', '${a}', '${ids.trace}', '${ids.grader}');
      INSERT INTO experiments (id, organization_id, trace_function_key, selection) VALUES ('${ids.exp}', '${a}', 'fn', '{}');
      INSERT INTO experiment_items (experiment_id, original_trace_id, position) VALUES ('${ids.exp}', '${ids.trace}', 0);
      INSERT INTO trace_labels (id, organization_id, trace_id, label_status, label_source) VALUES ('${ids.label}', '${a}', '${ids.trace}', 'labeled', 'human');
    `);

    expect(await migrate(db.sql, all)).toContain(KEYS_MIGRATION);

    const orgOf = async (table: string) =>
      (await db.sql.query<{ organization_id: string }>(sql`SELECT DISTINCT organization_id::text FROM ${raw(table)}`)).map((r) => r.organization_id);
    for (const table of ["function_versions", "dataset_graders", "experiment_items"]) expect(await orgOf(table)).toEqual([a]);
    const counts = await db.sql.query<Record<string, number>>(sql`SELECT
      (SELECT count(*)::int FROM function_versions) AS versions, (SELECT count(*)::int FROM function_executions) AS executions,
      (SELECT count(*)::int FROM trace_events) AS events, (SELECT count(*)::int FROM dataset_traces) AS members,
      (SELECT count(*)::int FROM dataset_graders) AS assignments, (SELECT count(*)::int FROM grader_rerun_items) AS items,
      (SELECT count(*)::int FROM experiment_items) AS experiment_items, (SELECT count(*)::int FROM trace_labels) AS labels`);
    expect(counts[0]).toEqual({ versions: 2, executions: 1, events: 1, members: 1, assignments: 1, items: 1, experiment_items: 1, labels: 1 });

    // A child row of another organization's parent is refused; the same ids are free for another organization.
    await expect(db.sql.exec(`INSERT INTO function_versions (id, organization_id, function_id, version_number, prompt) VALUES ('${newId()}', '${b}', '${ids.fn}', 3, 'x')`)).rejects.toThrow(/foreign key/);
    await db.sql.exec(`INSERT INTO datasets (id, organization_id, trace_function_key, name) VALUES ('${ids.ds}', '${b}', 'fn', 'd')`);
    // One active re-run per dataset, within its organization.
    await db.sql.exec(`INSERT INTO grader_reruns (id, organization_id, dataset_id, grader_ids, status) VALUES ('${newId()}', '${b}', '${ids.ds}', '[]', 'running')`);
    await expect(db.sql.exec(`INSERT INTO grader_reruns (id, organization_id, dataset_id, grader_ids, status) VALUES ('${newId()}', '${a}', '${ids.ds}', '[]', 'pending')`)).rejects.toThrow(/duplicate key/);
    // Deleting a parent still removes its children.
    await db.sql.exec(`DELETE FROM datasets WHERE organization_id = '${a}' AND id = '${ids.ds}'`);
    expect(await db.sql.query(sql`SELECT 1 FROM dataset_graders UNION ALL SELECT 1 FROM dataset_traces`)).toEqual([]);
    await db.sql.exec(`DELETE FROM grader_reruns WHERE organization_id = '${a}' AND id = '${ids.run}'`);
    expect(await db.sql.query(sql`SELECT 1 FROM grader_rerun_items`)).toEqual([]);
    await db.sql.exec(`DELETE FROM functions WHERE organization_id = '${a}'`);
    expect(await db.sql.query(sql`SELECT 1 FROM function_versions UNION ALL SELECT 1 FROM function_executions`)).toEqual([]);
  });

  it("every table but the small global ones has organization_id first in its primary key and in each unique index and foreign key", async () => {
    const db = await emptyDatabase();
    await migrate(db.sql);
    const problems = await db.sql.query<{ problem: string }>(sql`
      WITH t AS (
        SELECT c.oid, c.relname, a.attnum AS org FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
        LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'organization_id'
        WHERE c.relkind IN ('r', 'p') AND c.relname <> ALL (${GLOBAL_TABLES}::text[])
      )
      SELECT t.relname || ': no organization_id' AS problem FROM t WHERE t.org IS NULL
      UNION ALL
      SELECT t.relname || ': primary key does not start with organization_id' FROM t
        JOIN pg_index i ON i.indrelid = t.oid AND i.indisprimary WHERE i.indkey[0] <> t.org
      UNION ALL
      SELECT t.relname || ': no primary key' FROM t WHERE NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = t.oid AND i.indisprimary)
      UNION ALL
      SELECT t.relname || ': unique index ' || ic.relname || ' lacks organization_id' FROM t
        JOIN pg_index i ON i.indrelid = t.oid AND i.indisunique JOIN pg_class ic ON ic.oid = i.indexrelid
        WHERE NOT (t.org = ANY (i.indkey::int2[]))
      UNION ALL
      SELECT t.relname || ': foreign key ' || k.conname || ' lacks organization_id or cascades updates' FROM t
        JOIN pg_constraint k ON k.conrelid = t.oid AND k.contype = 'f'
        WHERE NOT (t.org = ANY (k.conkey)) OR k.confupdtype = 'c'
      ORDER BY 1`);
    expect(problems.map((p) => p.problem)).toEqual([]);
  });
});
