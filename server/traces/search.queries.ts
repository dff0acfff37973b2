// The trace search that agents run (search_traces): every filter is one SQL condition on the trace row,
// its current whole-trace verdict, its dataset membership or its root span. Every query filters by
// organization. Raw SQL for the same reasons as the trace list (traces.queries.ts).
import type { DbClient } from "../db/client.ts";
import { join, sql, uuidArray, type Sql } from "../db/sql.ts";

export interface TraceSearchFilter {
  traceFunctionKey: string;
  status?: string;
  createdFrom?: Date;
  createdBefore?: Date;
  traceIds?: string[];
  /** ILIKE pattern on the title, already escaped. */
  titlePattern?: string;
  /** Regular expression (PostgreSQL ~*) on the title: whole words in order. */
  titleRegex?: string;
  /** ILIKE pattern on the title, the metadata and the root span's input and output, already escaped. */
  textPattern?: string;
  /** Regular expression on the same text. */
  textRegex?: string;
  environment?: string;
  /** Lower-cased pairs, each matched exactly and case-insensitively against the trace metadata. */
  callerMetadata?: Array<[string, string]>;
  labelSource?: "human" | "agent";
  validated?: boolean;
  labelResult?: boolean;
  includeReplays: boolean;
  testRunId?: string;
  datasetId?: string;
}

const ROOT_TEXT = sql`(SELECT COALESCE(r.raw_span -> 'span_data' ->> 'input', '') || ' ' || COALESCE(r.raw_span -> 'span_data' ->> 'output', '')
  FROM spans r WHERE r.organization_id = t.organization_id AND r.trace_id = t.id AND r.parent_span_id IS NULL
  ORDER BY r.started_at NULLS LAST LIMIT 1)`;
const SEARCH_TEXT = sql`(COALESCE(NULLIF(t.name, ''), t.trace_function_key, '') || ' ' || t.metadata::text || ' ' || COALESCE(${ROOT_TEXT}, ''))`;

function verdictConditions(f: TraceSearchFilter): Sql | undefined {
  if (f.labelSource === undefined && f.validated === undefined && f.labelResult === undefined) return undefined;
  const where: Sql[] = [
    sql`l.organization_id = t.organization_id`, sql`l.trace_id = t.id`, sql`l.assertion_id IS NULL`,
    sql`l.superseded_at IS NULL`, sql`l.label_status = 'labeled'`,
  ];
  if (f.labelSource !== undefined) where.push(sql`l.label_source = ${f.labelSource}`);
  if (f.validated !== undefined) where.push(f.validated ? sql`l.approved` : sql`NOT l.approved`);
  if (f.labelResult !== undefined) where.push(sql`l.label = ${f.labelResult}`);
  return sql`EXISTS (SELECT 1 FROM trace_labels l WHERE ${join(where, " AND ")})`;
}

/** Ids of at most `take` matching traces, newest first. */
export function selectTraceSearch(db: DbClient, organizationId: string, f: TraceSearchFilter, take: number) {
  const where: Sql[] = [sql`t.organization_id = ${organizationId}::uuid`, sql`NOT t.dropped`, sql`t.trace_function_key = ${f.traceFunctionKey}`];
  if (f.status !== undefined) where.push(sql`t.status = ${f.status}`);
  if (f.createdFrom) where.push(sql`COALESCE(t.started_at, t.created_at) >= ${f.createdFrom.toISOString()}::timestamptz`);
  if (f.createdBefore) where.push(sql`COALESCE(t.started_at, t.created_at) < ${f.createdBefore.toISOString()}::timestamptz`);
  if (f.traceIds) where.push(sql`t.id = ANY(${uuidArray(f.traceIds)})`);
  if (f.titlePattern !== undefined) where.push(sql`COALESCE(NULLIF(t.name, ''), t.trace_function_key, '') ILIKE ${f.titlePattern} ESCAPE '\\'`);
  if (f.titleRegex !== undefined) where.push(sql`COALESCE(NULLIF(t.name, ''), t.trace_function_key, '') ~* ${f.titleRegex}`);
  if (f.textPattern !== undefined) where.push(sql`${SEARCH_TEXT} ILIKE ${f.textPattern} ESCAPE '\\'`);
  if (f.textRegex !== undefined) where.push(sql`${SEARCH_TEXT} ~ ${f.textRegex}`);
  if (f.environment !== undefined) {
    where.push(sql`lower(COALESCE(t.metadata ->> 'environment', t.metadata ->> 'env', '')) = lower(${f.environment})`);
  }
  for (const [key, value] of f.callerMetadata ?? []) {
    where.push(sql`EXISTS (SELECT 1 FROM jsonb_each_text(CASE WHEN jsonb_typeof(t.metadata) = 'object' THEN t.metadata ELSE '{}'::jsonb END) m
      WHERE lower(m.key) = ${key} AND lower(m.value) = ${value})`);
  }
  const verdict = verdictConditions(f);
  if (verdict) where.push(verdict);
  if (f.testRunId !== undefined) where.push(sql`t.test_run_id = ${f.testRunId}::uuid`);
  else if (!f.includeReplays) where.push(sql`t.test_run_id IS NULL`);
  if (f.datasetId !== undefined) {
    where.push(sql`EXISTS (SELECT 1 FROM dataset_traces d WHERE d.dataset_id = ${f.datasetId}::uuid AND d.organization_id = t.organization_id AND d.trace_id = t.id)`);
  }
  return db.sql.query<{ id: string }>(sql`
    SELECT t.id::text AS id FROM traces t
    WHERE ${join(where, " AND ")}
    ORDER BY COALESCE(t.started_at, t.created_at) DESC, t.id DESC
    LIMIT ${take}`);
}

/** The root span's output of each trace (the first root by start), for previews. */
export function selectRootOutputs(db: DbClient, organizationId: string, traceIds: string[]) {
  if (traceIds.length === 0) return Promise.resolve([] as Array<{ trace_id: string; output: unknown; error: string | null }>);
  return db.sql.query<{ trace_id: string; output: unknown; error: string | null }>(sql`
    SELECT DISTINCT ON (s.trace_id) s.trace_id::text AS trace_id, s.raw_span -> 'span_data' -> 'output' AS output, s.error
    FROM spans s
    WHERE s.organization_id = ${organizationId}::uuid AND s.trace_id = ANY(${uuidArray(traceIds)}) AND s.parent_span_id IS NULL
    ORDER BY s.trace_id, s.started_at NULLS LAST`);
}

/** Every trace function key of the organization with its trace count and last activity, most recent first. */
export function selectTraceFunctions(db: DbClient, organizationId: string) {
  return db.sql.query<{ trace_function_key: string; trace_count: number; last_activity: Date | string | null }>(sql`
    SELECT trace_function_key, count(*)::int AS trace_count, max(COALESCE(started_at, created_at)) AS last_activity
    FROM traces
    WHERE organization_id = ${organizationId}::uuid AND NOT dropped AND test_run_id IS NULL AND trace_function_key IS NOT NULL
    GROUP BY trace_function_key
    ORDER BY last_activity DESC NULLS LAST, trace_function_key`);
}

export function selectCreatedAt(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.trace.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, createdAt: true } });
}
