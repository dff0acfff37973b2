// The writes of an import: rows of an export file inserted as the table's own row type
// (json_populate_recordset), each with the importing organization, never replacing a row that exists
// (ON CONFLICT DO NOTHING on every key): importing the same file twice changes nothing.
import type { DbClient } from "../db/client.ts";
import { raw, sql, uuidArray } from "../db/sql.ts";

export type TImportTable =
  | "graders" | "grader_versions" | "datasets" | "dataset_graders" | "traces" | "spans" | "otel_span_events"
  | "assertions" | "assertion_versions" | "trace_labels" | "grader_labels" | "dataset_traces";

/**
 * Rows that point at a parent are written only when the parent is there (it may not have travelled). The
 * parents are read first: Citus refuses a correlated subquery beside json_populate_recordset.
 */
const PARENTS: Partial<Record<TImportTable, Array<{ table: "graders" | "assertions" | "datasets"; column: string }>>> = {
  grader_versions: [{ table: "graders", column: "grader_id" }],
  assertion_versions: [{ table: "assertions", column: "assertion_id" }],
  dataset_graders: [{ table: "datasets", column: "dataset_id" }, { table: "graders", column: "grader_id" }],
  dataset_traces: [{ table: "datasets", column: "dataset_id" }],
};

async function withParents(db: DbClient, table: TImportTable, organizationId: string, rows: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  let kept = rows;
  for (const parent of PARENTS[table] ?? []) {
    const ids = [...new Set(kept.map((r) => String(r[parent.column])))];
    if (ids.length === 0) return [];
    const found = await db.sql.query<{ id: string }>(sql`
      SELECT id::text AS id FROM ${raw(parent.table)} WHERE organization_id = ${organizationId}::uuid AND id = ANY(${uuidArray(ids)})`);
    const present = new Set(found.map((f) => f.id));
    kept = kept.filter((r) => present.has(String(r[parent.column]).toLowerCase()));
  }
  return kept;
}

/** Inserts the rows (the organization set on each); returns how many were new. */
export async function insertRows(db: DbClient, table: TImportTable, organizationId: string, rows: Record<string, unknown>[]): Promise<number> {
  const kept = await withParents(db, table, organizationId, rows);
  if (kept.length === 0) return 0;
  const json = JSON.stringify(kept.map((r) => ({ ...r, organization_id: organizationId })));
  const inserted = await db.sql.query<{ one: number }>(sql`
    INSERT INTO ${raw(table)}
    SELECT r.* FROM json_populate_recordset(NULL::${raw(table)}, ${json}::json) r
    ON CONFLICT DO NOTHING
    RETURNING 1 AS one`);
  return inserted.length;
}
