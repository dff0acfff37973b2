// The reads of an export: the rows of a page of traces and of everything that hangs from them, as the
// database's own columns (row_to_json keeps timestamps to the microsecond and json documents as stored).
// Every statement names one organization and a bounded list of ids.
import type { DbClient } from "../db/client.ts";
import { raw, sql, uuidArray, type Sql } from "../db/sql.ts";

type TRow = Record<string, unknown>;

async function rows(db: DbClient, statement: Sql): Promise<TRow[]> {
  const out = await db.sql.query<{ r: TRow }>(statement);
  return out.map((o) => o.r);
}

/** Rows of `table` whose `column` is among `ids`, ordered for a stable file. */
function byIds(table: "traces" | "spans" | "otel_span_events" | "trace_labels" | "grader_labels" | "assertions" | "dataset_traces", column: "id" | "trace_id", orgId: string, ids: string[], order: string): Sql {
  return sql`SELECT row_to_json(x) AS r FROM ${raw(table)} x
    WHERE x.organization_id = ${orgId}::uuid AND x.${raw(column)} = ANY(${uuidArray(ids)}) ORDER BY ${raw(order)}`;
}

export interface TPageRows {
  traces: TRow[];
  spans: TRow[];
  events: TRow[];
  labels: TRow[];
  graderLabels: TRow[];
  assertions: TRow[];
  assertionVersions: TRow[];
  datasetMembers: TRow[];
}

export async function selectPageRows(db: DbClient, organizationId: string, traceIds: string[]): Promise<TPageRows> {
  if (traceIds.length === 0) return { traces: [], spans: [], events: [], labels: [], graderLabels: [], assertions: [], assertionVersions: [], datasetMembers: [] };
  const o = organizationId;
  const traces = await rows(db, byIds("traces", "id", o, traceIds, "x.id"));
  const spans = await rows(db, byIds("spans", "trace_id", o, traceIds, "x.trace_id, x.started_at NULLS FIRST, x.id"));
  const events = await rows(db, byIds("otel_span_events", "trace_id", o, traceIds, "x.span_id, x.seq, x.event_key"));
  const labels = await rows(db, byIds("trace_labels", "trace_id", o, traceIds, "x.created_at, x.id"));
  const graderLabels = await rows(db, byIds("grader_labels", "trace_id", o, traceIds, "x.id"));
  const assertions = await rows(db, byIds("assertions", "trace_id", o, traceIds, "x.created_at, x.id"));
  const assertionIds = assertions.map((a) => a.id as string);
  const assertionVersions = assertionIds.length
    ? await rows(db, sql`SELECT row_to_json(x) AS r FROM assertion_versions x
        WHERE x.organization_id = ${o}::uuid AND x.assertion_id = ANY(${uuidArray(assertionIds)}) ORDER BY x.assertion_id, x.version`)
    : [];
  const datasetMembers = await rows(db, byIds("dataset_traces", "trace_id", o, traceIds, "x.dataset_id"));
  return { traces, spans, events, labels, graderLabels, assertions, assertionVersions, datasetMembers };
}

/** The organization's graders of these trace functions, or with these ids, with their versions. */
export async function selectGraders(db: DbClient, organizationId: string, traceFunctionKeys: string[], graderIds: string[]) {
  const graders = await rows(db, sql`SELECT row_to_json(x) AS r FROM graders x
    WHERE x.organization_id = ${organizationId}::uuid
      AND (x.trace_function_key IN (SELECT jsonb_array_elements_text(${JSON.stringify(traceFunctionKeys)}::jsonb)) OR x.id = ANY(${uuidArray(graderIds)}))
    ORDER BY x.id`);
  const ids = graders.map((g) => g.id as string);
  const versions = ids.length
    ? await rows(db, sql`SELECT row_to_json(x) AS r FROM grader_versions x
        WHERE x.organization_id = ${organizationId}::uuid AND x.grader_id = ANY(${uuidArray(ids)}) ORDER BY x.grader_id, x.version`)
    : [];
  return { graders, versions };
}

/** Datasets by id, with the graders assigned to them. */
export async function selectDatasets(db: DbClient, organizationId: string, datasetIds: string[]) {
  if (datasetIds.length === 0) return { datasets: [], graders: [] };
  const datasets = await rows(db, sql`SELECT row_to_json(x) AS r FROM datasets x
    WHERE x.organization_id = ${organizationId}::uuid AND x.id = ANY(${uuidArray(datasetIds)}) ORDER BY x.id`);
  const graders = await rows(db, sql`SELECT row_to_json(x) AS r FROM dataset_graders x
    WHERE x.organization_id = ${organizationId}::uuid AND x.dataset_id = ANY(${uuidArray(datasetIds)}) ORDER BY x.dataset_id, x.grader_id`);
  return { datasets, graders };
}
