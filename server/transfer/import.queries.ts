// The writes of an import: rows of an export file inserted as the table's own row type
// (json_populate_recordset), each with the importing organization, never replacing a row that exists
// (ON CONFLICT DO NOTHING on every key): importing the same file twice changes nothing.
import type { DbClient } from "../db/client.ts";
import { empty, raw, sql, type Sql } from "../db/sql.ts";

export type TImportTable =
  | "graders" | "grader_versions" | "datasets" | "dataset_graders" | "traces" | "spans" | "otel_span_events"
  | "assertions" | "assertion_versions" | "trace_labels" | "grader_labels" | "dataset_traces";

/** Rows that point at a parent are written only when the parent is there (it may not have travelled). */
const PARENT: Partial<Record<TImportTable, Sql>> = {
  grader_versions: sql`EXISTS (SELECT 1 FROM graders p WHERE p.organization_id = r.organization_id AND p.id = r.grader_id)`,
  assertion_versions: sql`EXISTS (SELECT 1 FROM assertions p WHERE p.organization_id = r.organization_id AND p.id = r.assertion_id)`,
  dataset_graders: sql`EXISTS (SELECT 1 FROM datasets p WHERE p.organization_id = r.organization_id AND p.id = r.dataset_id)
    AND EXISTS (SELECT 1 FROM graders g WHERE g.organization_id = r.organization_id AND g.id = r.grader_id)`,
  dataset_traces: sql`EXISTS (SELECT 1 FROM datasets p WHERE p.organization_id = r.organization_id AND p.id = r.dataset_id)`,
};

/** Inserts the rows (the organization set on each); returns how many were new. */
export async function insertRows(db: DbClient, table: TImportTable, organizationId: string, rows: Record<string, unknown>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const json = JSON.stringify(rows.map((r) => ({ ...r, organization_id: organizationId })));
  const parent = PARENT[table];
  const inserted = await db.sql.query<{ one: number }>(sql`
    INSERT INTO ${raw(table)}
    SELECT r.* FROM json_populate_recordset(NULL::${raw(table)}, ${json}::json) r
    ${parent ? sql`WHERE ${parent}` : empty}
    ON CONFLICT DO NOTHING
    RETURNING 1 AS one`);
  return inserted.length;
}
