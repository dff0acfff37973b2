// The dashboard's reads (docs/dashboard.md): aggregates of one organization's traces that started in a range,
// optionally of one trace function. Every chart counts exactly the traces the trace list shows for the same
// filters (not dropped, no replay traces but in the replay chart), so a point's figure is the list's total.
// Each is one statement over the indexes of migration 0251 (docs/scaling.md, "Dashboard").
import type { DbClient } from "../../db/client.ts";
import { empty, sql, type Sql } from "../../db/sql.ts";

export interface TDashboardScope {
  organizationId: string;
  from: Date;
  to: Date;
  traceFunctionKey?: string;
  /** Bucket width in seconds; buckets start at `origin` (default `from`), the first one cut at `from`. */
  stepSeconds: number;
  /** Where buckets are counted from: the dashboard counts hour-wide and wider buckets from whole hours, so that
   * they are unions of the hourly rollups (docs/scaling.md, "Dashboard"). */
  origin?: Date;
}

/** The traces of the scope, as the trace list filters them (alias `t`). */
function tracesIn(s: TDashboardScope): Sql {
  return sql`t.organization_id = ${s.organizationId}::uuid AND NOT t.dropped AND t.test_run_id IS NULL
    AND t.started_at >= ${s.from.toISOString()}::timestamptz AND t.started_at < ${s.to.toISOString()}::timestamptz
    ${s.traceFunctionKey === undefined ? empty : sql`AND t.trace_function_key = ${s.traceFunctionKey}`}`;
}

const bucketOf = (s: TDashboardScope) =>
  sql`date_bin(${s.stepSeconds}::int * INTERVAL '1 second', t.started_at, ${(s.origin ?? s.from).toISOString()}::timestamptz)`;
const latencyMs = sql`CASE WHEN t.ended_at IS NOT NULL THEN EXTRACT(EPOCH FROM t.ended_at - t.started_at) * 1000 END`;
const percentiles = sql`
  percentile_cont(0.5) WITHIN GROUP (ORDER BY ${latencyMs})::float8 AS p50,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY ${latencyMs})::float8 AS p95,
  percentile_cont(0.99) WITHIN GROUP (ORDER BY ${latencyMs})::float8 AS p99`;

export interface TBucketRow {
  bucket: Date;
  traces: number;
  errors: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  costUsd: number | null;
}

/** Traces, errors, latency percentiles and cost per interval. */
export function selectBuckets(db: DbClient, s: TDashboardScope) {
  return db.sql.query<TBucketRow>(sql`
    SELECT ${bucketOf(s)} AS bucket, count(*)::int AS traces, count(*) FILTER (WHERE t.status = 'failed')::int AS errors,
      ${percentiles}, sum(t.cost_usd)::float8 AS "costUsd"
    FROM traces t WHERE ${tracesIn(s)}
    GROUP BY 1 ORDER BY 1`);
}

export interface TFunctionRow {
  /** Null on the totals row. */
  traceFunctionKey: string | null;
  total: boolean;
  traces: number;
  errors: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  costUsd: number | null;
}

/** Per trace function, and the totals (the row with `total`). */
export function selectByFunction(db: DbClient, s: TDashboardScope) {
  return db.sql.query<TFunctionRow>(sql`
    SELECT t.trace_function_key AS "traceFunctionKey", GROUPING(t.trace_function_key) = 1 AS total,
      count(*)::int AS traces, count(*) FILTER (WHERE t.status = 'failed')::int AS errors, ${percentiles},
      sum(t.cost_usd)::float8 AS "costUsd"
    FROM traces t WHERE ${tracesIn(s)}
    GROUP BY GROUPING SETS ((t.trace_function_key), ())`);
}

export interface TUsageRow {
  /** "model" or "function": which grouping the row belongs to. */
  by: "model" | "function";
  key: string | null;
  traces: number;
  spans: number;
  unpricedSpans: number;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  costUsd: number | null;
}

/**
 * Tokens and cost of the scope's LLM spans, by model and by trace function. The spans are read by their own
 * start (a span starts with or after its trace, and traces longer than a day are not expected), then kept only
 * when their trace is in the scope.
 */
export function selectUsage(db: DbClient, s: TDashboardScope) {
  const spanTo = new Date(s.to.getTime() + 86_400_000).toISOString();
  return db.sql.query<TUsageRow>(sql`
    SELECT CASE WHEN GROUPING(s.model) = 0 THEN 'model' ELSE 'function' END AS by,
      CASE WHEN GROUPING(s.model) = 0 THEN s.model ELSE t.trace_function_key END AS key,
      count(DISTINCT t.id)::int AS traces, count(*)::int AS spans,
      count(*) FILTER (WHERE s.cost_usd IS NULL AND (s.input_tokens IS NOT NULL OR s.output_tokens IS NOT NULL OR s.total_tokens IS NOT NULL))::int AS "unpricedSpans",
      sum(s.input_tokens)::float8 AS "inputTokens", sum(s.output_tokens)::float8 AS "outputTokens",
      sum(COALESCE(s.total_tokens, COALESCE(s.input_tokens, 0) + COALESCE(s.output_tokens, 0)))::float8 AS "totalTokens",
      sum(s.cost_usd)::float8 AS "costUsd"
    FROM spans s
    JOIN traces t ON t.organization_id = s.organization_id AND t.id = s.trace_id
    WHERE s.organization_id = ${s.organizationId}::uuid AND s.model IS NOT NULL
      AND s.started_at >= ${s.from.toISOString()}::timestamptz AND s.started_at < ${spanTo}::timestamptz
      AND ${tracesIn(s)}
    GROUP BY GROUPING SETS ((s.model), (t.trace_function_key))`);
}

export interface TGraderBucketRow {
  graderId: string;
  name: string;
  bucket: Date;
  pass: number;
  fail: number;
}

/** Each grader's passes and failures per interval (by the start of the traces it graded). */
export function selectGraderBuckets(db: DbClient, s: TDashboardScope) {
  return db.sql.query<TGraderBucketRow>(sql`
    SELECT g.grader_id::text AS "graderId", min(gr.name) AS name, ${bucketOf(s)} AS bucket,
      count(*) FILTER (WHERE g.label)::int AS pass, count(*) FILTER (WHERE NOT g.label)::int AS fail
    FROM traces t
    JOIN grader_labels g ON g.organization_id = t.organization_id AND g.trace_id = t.id AND g.label IS NOT NULL
    LEFT JOIN graders gr ON gr.organization_id = g.organization_id AND gr.id = g.grader_id
    WHERE ${tracesIn(s)}
    GROUP BY g.grader_id, 3 ORDER BY 2, 3`);
}

export interface TGraderScoreBucketRow {
  graderId: string;
  name: string | null;
  bucket: Date;
  /** null on the row of a bucket's scores; the category on a row counting one category. */
  category: string | null;
  /** Scored (or, on a category row, categorised) labels. */
  count: number;
  mean: number | null;
  min: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  max: number | null;
}

/**
 * Each grader's score distribution per interval (by the start of the traces it graded), and its category counts
 * (docs/dashboard.md, "Scores"): one row per (grader, bucket) with the scores' quantiles, and one per
 * (grader, bucket, category). A clean function of the scope, for the dashboard and for alerts.
 */
export function selectGraderScoreBuckets(db: DbClient, s: TDashboardScope) {
  return db.sql.query<TGraderScoreBucketRow>(sql`
    SELECT g.grader_id::text AS "graderId", min(gr.name) AS name, ${bucketOf(s)} AS bucket, g.category,
      count(*)::int AS count, avg(g.score)::float8 AS mean, min(g.score)::float8 AS min,
      percentile_cont(0.25) WITHIN GROUP (ORDER BY g.score)::float8 AS p25,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY g.score)::float8 AS p50,
      percentile_cont(0.75) WITHIN GROUP (ORDER BY g.score)::float8 AS p75,
      max(g.score)::float8 AS max
    FROM traces t
    JOIN grader_labels g ON g.organization_id = t.organization_id AND g.trace_id = t.id AND (g.score IS NOT NULL OR g.category IS NOT NULL)
    LEFT JOIN graders gr ON gr.organization_id = g.organization_id AND gr.id = g.grader_id
    WHERE ${tracesIn(s)}
    GROUP BY GROUPING SETS ((g.grader_id, 3), (g.grader_id, 3, g.category))
    HAVING (GROUPING(g.category) = 1 AND count(g.score) > 0) OR (GROUPING(g.category) = 0 AND g.category IS NOT NULL)
    ORDER BY 1, 3, 4`);
}

export interface TVerdictRow {
  source: string;
  label: boolean;
  traces: number;
}

/** Traces with a current whole-trace verdict, by its source and pass or fail (the trace list's label filter). */
export function selectVerdicts(db: DbClient, s: TDashboardScope) {
  return db.sql.query<TVerdictRow>(sql`
    SELECT l.label_source AS source, l.label, count(DISTINCT t.id)::int AS traces
    FROM traces t
    JOIN trace_labels l ON l.organization_id = t.organization_id AND l.trace_id = t.id
      AND l.assertion_id IS NULL AND l.superseded_at IS NULL AND l.label_status = 'labeled' AND l.label IS NOT NULL
    WHERE ${tracesIn(s)}
    GROUP BY l.label_source, l.label ORDER BY 1, 2 DESC`);
}

export interface TReplayRow {
  experimentId: string;
  name: string | null;
  traceFunctionKey: string;
  createdAt: Date;
  traces: number;
  pass: number;
  fail: number;
}

/** Experiments created in the range: their replay traces and their graders' passes and failures. */
export function selectReplays(db: DbClient, s: TDashboardScope) {
  return db.sql.query<TReplayRow>(sql`
    SELECT e.id::text AS "experimentId", e.name, e.trace_function_key AS "traceFunctionKey", e.created_at AS "createdAt",
      (SELECT count(*)::int FROM traces t WHERE t.organization_id = e.organization_id AND t.test_run_id = e.id AND NOT t.dropped) AS traces,
      (SELECT count(*)::int FROM traces t JOIN grader_labels g ON g.organization_id = t.organization_id AND g.trace_id = t.id
        WHERE t.organization_id = e.organization_id AND t.test_run_id = e.id AND NOT t.dropped AND g.label) AS pass,
      (SELECT count(*)::int FROM traces t JOIN grader_labels g ON g.organization_id = t.organization_id AND g.trace_id = t.id
        WHERE t.organization_id = e.organization_id AND t.test_run_id = e.id AND NOT t.dropped AND NOT g.label) AS fail
    FROM experiments e
    WHERE e.organization_id = ${s.organizationId}::uuid
      AND e.created_at >= ${s.from.toISOString()}::timestamptz AND e.created_at < ${s.to.toISOString()}::timestamptz
      ${s.traceFunctionKey === undefined ? empty : sql`AND e.trace_function_key = ${s.traceFunctionKey}`}
    ORDER BY e.created_at DESC LIMIT 50`);
}
