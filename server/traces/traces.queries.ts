// The only database access of the trace reads and updates. Every query filters by organization.
import type { DbClient } from "../db/client.ts";
import { join, raw, sql, uuidArray, type Sql } from "../db/sql.ts";
import { spanHasCaptureStep, UNFAITHFUL_STEPS } from "./faithful.ts";

export const traceSelect = {
  id: true,
  name: true,
  traceFunctionKey: true,
  status: true,
  ingestionType: true,
  sessionId: true,
  metadata: true,
  contexts: true,
  startedAt: true,
  endedAt: true,
  expectedSpanCount: true,
  completedAt: true,
  dropped: true,
  testRunId: true,
  originalTraceId: true,
  source: true,
  amendedAt: true,
  costUsd: true,
} as const;

export function selectTrace(db: DbClient, organizationId: string, id: string) {
  return db.prisma.trace.findUnique({ where: { organizationId_id: { organizationId, id } }, select: traceSelect });
}

export function selectTraces(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.trace.findMany({ where: { organizationId, id: { in: ids } }, select: traceSelect });
}

export type TTraceRow = NonNullable<Awaited<ReturnType<typeof selectTrace>>>;

/** One row of aggregateTraceSpans. */
export interface TTraceSpanAggregateRow {
  traceId: string;
  /** False on the trace's own row; true on a row per model of its spans (model null included). */
  perModel: boolean;
  model: string | null;
  count: number;
  inputReported: number;
  outputReported: number;
  cachedReported: number;
  totalReported: number;
  inputSum: number | null;
  outputSum: number | null;
  cachedSum: number | null;
  totalSum: number | null;
  firstStart: Date | null;
  lastEnd: Date | null;
  firstCreated: Date;
  /** The unfaithful capture steps found on the spans, sorted (faithful.ts). */
  captureIssues: string[];
}

/**
 * The traces' span aggregates in one pass over their spans (a trace of an agent loop holds 10,000, and each
 * pass reads them all): per trace, counts, token sums with how many spans reported each, time bounds and the
 * unfaithful capture steps found; per trace and model, how often the model occurs and when it first occurred
 * (for "earliest on ties").
 */
export function aggregateTraceSpans(db: DbClient, organizationId: string, traceIds: string[]) {
  const traces = uuidArray(traceIds);
  // All but the capture notes from the traces' index, the notes from the partial index of the spans that carry
  // any (migration 0285): an index-only read, where each span's heap row took seconds for a 100,000-span trace.
  return db.sql.query<TTraceSpanAggregateRow>(
    spanAggregates(sql`(
      SELECT ${raw(SPAN_AGGREGATE_COLUMNS.filter((c) => c !== "errors").map((c) => `sp.${c}`).join(", "))}, e.errors
      FROM spans sp LEFT JOIN (
        SELECT organization_id, id, errors FROM spans
        WHERE organization_id = ${organizationId}::uuid AND trace_id = ANY(${traces}) AND errors IS NOT NULL
      ) e ON e.organization_id = sp.organization_id AND e.id = sp.id
      WHERE sp.organization_id = ${organizationId}::uuid AND sp.trace_id = ANY(${traces})) s`),
  );
}

/**
 * The rows of aggregateTraceSpans over `from`: span rows named `s` with the spans table's columns, already
 * filtered to the traces wanted (the trace page reads one trace's spans once for these and its waterfall).
 */
export function spanAggregates(from: Sql): Sql {
  const steps = UNFAITHFUL_STEPS.map((step) => sql`CASE WHEN bool_or(${spanHasCaptureStep("s", step)}) THEN ${step} END`);
  return sql`
    SELECT s.trace_id::text AS "traceId", GROUPING(s.model) = 0 AS "perModel", s.model, count(*)::int AS count,
      count(s.input_tokens)::int AS "inputReported", count(s.output_tokens)::int AS "outputReported",
      count(s.cached_tokens)::int AS "cachedReported", count(s.total_tokens)::int AS "totalReported",
      sum(s.input_tokens)::float8 AS "inputSum", sum(s.output_tokens)::float8 AS "outputSum",
      sum(s.cached_tokens)::float8 AS "cachedSum", sum(s.total_tokens)::float8 AS "totalSum",
      min(s.started_at) AS "firstStart", max(s.ended_at) AS "lastEnd", min(s.created_at) AS "firstCreated",
      array_remove(ARRAY[${join(steps, ", ")}]::text[], NULL) AS "captureIssues"
    FROM ${from}
    GROUP BY GROUPING SETS ((s.trace_id), (s.trace_id, s.model))`;
}

/** The columns spanAggregates reads. */
export const SPAN_AGGREGATE_COLUMNS = [
  "trace_id", "model", "input_tokens", "output_tokens", "cached_tokens", "total_tokens", "started_at", "ended_at", "created_at", "errors",
] as const;

/** A row of spanAggregates that went through json_agg: its times are ISO strings. */
export function fromAggregateJson(row: Omit<TTraceSpanAggregateRow, "firstStart" | "lastEnd" | "firstCreated"> & Record<"firstStart" | "lastEnd" | "firstCreated", string | null>): TTraceSpanAggregateRow {
  const date = (v: string | null) => (v === null ? null : new Date(v));
  return { ...row, firstStart: date(row.firstStart), lastEnd: date(row.lastEnd), firstCreated: new Date(row.firstCreated!) };
}

export interface TracePageFilter {
  traceFunctionKey?: string;
  status?: string;
  /** ILIKE pattern, already escaped. */
  titlePattern?: string;
  /** Widens titlePattern to the session id and the root span's input and output (the console's search). */
  searchContent?: boolean;
  sessionId?: string;
  labelState?: "unlabeled" | "pass" | "fail" | "validated";
  kind?: "captured" | "seeded" | "replay";
  /** Without a kind filter, leave replay traces (test_run_id set) out. */
  excludeReplays?: boolean;
  /** startedAt bounds: from inclusive, to exclusive. */
  startedFrom?: Date;
  startedTo?: Date;
  model?: string;
  graderId?: string;
  graderLabel?: "pass" | "fail" | "scored";
  graderCategory?: string;
  verdictSource?: "human" | "agent" | "judge";
  testRunId?: string;
  minCostUsd?: number;
  /** Keyset position: started_at in epoch microseconds (null = a trace without start) and id. */
  after?: { startedUs: string | null; id: string };
}

/** The WHERE of the trace list (without the keyset position), shared by the page, the count and the queue. */
function listWhere(organizationId: string, f: TracePageFilter): Sql[] {
  const where: Sql[] = [sql`organization_id = ${organizationId}::uuid`, sql`NOT dropped`];
  if (f.traceFunctionKey !== undefined) where.push(sql`trace_function_key = ${f.traceFunctionKey}`);
  if (f.status !== undefined) where.push(sql`status = ${f.status}`);
  if (f.sessionId !== undefined) where.push(sql`session_id = ${f.sessionId}`);
  if (f.titlePattern !== undefined) where.push(f.searchContent ? contentMatches(f.titlePattern) : titleMatches(f.titlePattern));
  if (f.labelState !== undefined) where.push(labelStateIs(f.labelState, f.verdictSource));
  if (f.model !== undefined) {
    where.push(sql`EXISTS (SELECT 1 FROM spans s WHERE s.organization_id = traces.organization_id AND s.trace_id = traces.id AND s.model = ${f.model})`);
  }
  if (f.graderId !== undefined) where.push(graderLabelIs(f.graderId, f.graderLabel, f.graderCategory));
  if (f.testRunId !== undefined) where.push(sql`test_run_id = ${f.testRunId}::uuid`);
  if (f.minCostUsd !== undefined) where.push(sql`cost_usd >= ${f.minCostUsd}::numeric`);
  if (f.kind === "replay") where.push(sql`test_run_id IS NOT NULL`);
  else if (f.kind !== undefined) where.push(sql`test_run_id IS NULL AND ingestion_type = ${f.kind}`);
  else if (f.excludeReplays) where.push(sql`test_run_id IS NULL`);
  if (f.startedFrom) where.push(sql`started_at >= ${f.startedFrom.toISOString()}::timestamptz`);
  if (f.startedTo) where.push(sql`started_at < ${f.startedTo.toISOString()}::timestamptz`);
  return where;
}

function titleMatches(pattern: string): Sql {
  return sql`COALESCE(NULLIF(name, ''), trace_function_key, '') ILIKE ${pattern} ESCAPE '\\'`;
}

/**
 * Title, session id, or the root span's input or output as JSON text. Not indexed: the caller bounds it with
 * a statement timeout (docs/api/console.md "Searching content").
 */
function contentMatches(pattern: string): Sql {
  return sql`(${titleMatches(pattern)} OR session_id ILIKE ${pattern} ESCAPE '\\' OR EXISTS (
    SELECT 1 FROM spans s
    WHERE s.organization_id = traces.organization_id AND s.trace_id = traces.id AND s.parent_span_id IS NULL
      AND ((s.raw_span -> 'span_data' ->> 'input') ILIKE ${pattern} ESCAPE '\\'
        OR (s.raw_span -> 'span_data' ->> 'output') ILIKE ${pattern} ESCAPE '\\')))`;
}

/**
 * Ids of one page of non-dropped traces, newest first (started_at DESC NULLS LAST, id DESC). Raw SQL because
 * the keyset compares started_at at full microsecond precision, which a JavaScript Date would truncate.
 */
export function selectTracePage(db: DbClient, organizationId: string, f: TracePageFilter, take: number) {
  const where = listWhere(organizationId, f);
  if (f.after) where.push(keysetAfter(f.after));
  return db.sql.query<{ id: string; started_us: string | null }>(sql`
    SELECT id::text AS id, (EXTRACT(EPOCH FROM started_at) * 1000000)::bigint::text AS started_us
    FROM traces
    WHERE ${join(where, " AND ")}
    ORDER BY started_at DESC NULLS LAST, id DESC
    LIMIT ${take}`);
}

/** How many non-dropped traces match the filter. */
export async function countTraces(db: DbClient, organizationId: string, f: TracePageFilter): Promise<number> {
  const rows = await db.sql.query<{ n: string }>(sql`SELECT count(*)::text AS n FROM traces WHERE ${join(listWhere(organizationId, f), " AND ")}`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The trace's current whole-trace verdict (trace_labels row with no assertion, not superseded) is in the
 * state: unlabeled = none (a skipped or errored one is a verdict state of its own, as the labels read says).
 */
function labelStateIs(state: NonNullable<TracePageFilter["labelState"]>, source?: TracePageFilter["verdictSource"]): Sql {
  const current = sql`FROM trace_labels l
    WHERE l.organization_id = traces.organization_id AND l.trace_id = traces.id
      AND l.assertion_id IS NULL AND l.superseded_at IS NULL`;
  if (state === "unlabeled") return sql`NOT EXISTS (SELECT 1 ${current})`;
  const match = state === "pass" ? sql`l.label = true` : state === "fail" ? sql`l.label = false` : sql`l.approved`;
  const from = source === undefined ? sql`TRUE` : sql`l.label_source = ${source}`;
  return sql`EXISTS (SELECT 1 ${current} AND l.label_status = 'labeled' AND ${match} AND ${from})`;
}

/**
 * The grader labelled the trace (pass or fail; with `label`, only that, or only a score: "scored"; with `category`,
 * only that category). The dashboard's score points count exactly the "scored" ones (docs/dashboard.md).
 */
function graderLabelIs(graderId: string, label?: "pass" | "fail" | "scored", category?: string): Sql {
  const match = category !== undefined ? sql`g.category = ${category}`
    : label === "pass" ? sql`g.label = true` : label === "fail" ? sql`g.label = false` : label === "scored" ? sql`g.score IS NOT NULL` : sql`g.label IS NOT NULL`;
  return sql`EXISTS (SELECT 1 FROM grader_labels g WHERE g.organization_id = traces.organization_id AND g.trace_id = traces.id
    AND g.grader_id = ${graderId}::uuid AND ${match})`;
}

function keysetAfter(after: { startedUs: string | null; id: string }): Sql {
  if (after.startedUs === null) return sql`(started_at IS NULL AND id < ${after.id}::uuid)`;
  const at = sql`(TIMESTAMPTZ 'epoch' + ${after.startedUs}::bigint * INTERVAL '1 microsecond')`;
  return sql`(started_at < ${at} OR (started_at = ${at} AND id < ${after.id}::uuid) OR started_at IS NULL)`;
}

export interface TraceRowPatch {
  appendContexts?: string;
  mergeMetadata?: string;
  setSessionId?: string | null;
  setName?: string | null;
}

/**
 * Applies a detached update in one statement, so concurrent patches never lose each other's keys or contexts.
 * Raw SQL because Prisma cannot express jsonb concatenation. Returns false when the trace is not the org's.
 */
export async function patchTraceRow(db: DbClient, organizationId: string, id: string, p: TraceRowPatch): Promise<boolean> {
  const sets: Sql[] = [sql`updated_at = now()`];
  if (p.appendContexts !== undefined) {
    sets.push(sql`contexts = (CASE WHEN jsonb_typeof(contexts) = 'array' THEN contexts ELSE '[]'::jsonb END) || ${p.appendContexts}::jsonb`);
  }
  if (p.mergeMetadata !== undefined) {
    sets.push(sql`metadata = (CASE WHEN jsonb_typeof(metadata) = 'object' THEN metadata ELSE '{}'::jsonb END) || ${p.mergeMetadata}::jsonb`);
  }
  if (p.setSessionId !== undefined) sets.push(sql`session_id = ${p.setSessionId}`);
  if (p.setName !== undefined) sets.push(sql`name = ${p.setName}`);
  const rows = await db.sql.query(sql`
    UPDATE traces SET ${join(sets, ", ")}
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid
    RETURNING id`);
  return rows.length > 0;
}

/**
 * Bounds the statements of the current transaction (SET LOCAL ends with it). PostgreSQL only: PGlite cannot
 * interrupt a running statement and ignores the setting.
 */
export async function setStatementTimeout(db: DbClient, milliseconds: number) {
  // SET takes no parameters; the value is an integer from the validated environment, written as a literal.
  await db.sql.query(sql`SET LOCAL statement_timeout = ${raw(String(Math.max(1, Math.trunc(milliseconds))))}`);
}
