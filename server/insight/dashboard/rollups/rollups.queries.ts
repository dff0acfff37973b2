// The dashboard rollups' SQL (docs/scaling.md, "Dashboard"): hourly aggregates per (organization, hour, trace
// function, kind, key) of what the charts read, the 'traces' row holding the hour and function's latency histogram.
// One statement, `aggregateSql`, computes them from the raw rows over a set of time ranges: the job stores its
// answer for whole hours, and the dashboard runs it over the hours it reads raw (the range's partial edge hours,
// hours not rolled up yet, stale ones), so both halves of a figure are the same arithmetic. Every statement names
// one organization (one shard group on Citus).
import type { DbClient } from "../../../db/client.ts";
import { randomUUID } from "node:crypto";
import { empty, join, raw, sql, type Sql } from "../../../db/sql.ts";
import type { TUsageRow } from "../dashboard.queries.ts";

/** Hours are cut from this Monday, in UTC whatever the session's time zone. */
export const HOUR_ORIGIN = "2000-01-03T00:00:00Z";
/** A write this long after its trace's start is a late change (the partial index of migration 0295). */
export const LATE_MS = 3_600_000;
/** What the job allows for a write's transaction and the app instances' clocks: changes stamped this much
 * before the job read them may still commit after it. */
export const SETTLE_MS = 5 * 60_000;
/** Latency histogram buckets grow by this ratio: a percentile read from them is within ±2.5%. */
export const LATENCY_RATIO = 1.05;

export interface TRange {
  start: Date;
  end: Date;
}

export type TRollupKind = "traces" | "model" | "llm" | "grader" | "verdict";

/** One aggregate row: a rollup row, or the same arithmetic over raw rows; the usage chart's figures and the counts the other charts read. */
export interface TRollupRow extends Pick<TUsageRow, "spans" | "unpricedSpans" | "inputTokens" | "outputTokens" | "totalTokens" | "costUsd"> {
  /** An hour (aggregates) or a chart bucket (rollup reads); null when not grouped by time. */
  at: Date | null;
  /** 'n' (no trace function) or 'k' + key; null when not grouped by function. */
  fn: string | null;
  kind: TRollupKind;
  key: string;
  traces: number;
  errors: number;
  pass: number;
  fail: number;
  /** The 'traces' row's latency histogram: the buckets holding traces, ascending, and their counts (else empty). */
  latencyBuckets: number[];
  latencyCounts: number[];
}

// Literals, not parameters: the same expression in the select list and in GROUPING SETS must read alike.
const hourOf = (col: Sql) => sql`date_bin(INTERVAL '1 hour', ${col}, ${raw(`TIMESTAMPTZ '${HOUR_ORIGIN}'`)})`;
export const fnCode = (key: string | undefined) => (key === undefined ? undefined : `k${key}`);
const fnOf = sql`CASE WHEN t.trace_function_key IS NULL THEN 'n' ELSE 'k' || t.trace_function_key END`;
const iso = (d: Date) => d.toISOString();
const starts = (ranges: TRange[]) => sql`${ranges.map((r) => iso(r.start))}::timestamptz[]`;
const ends = (ranges: TRange[]) => sql`${ranges.map((r) => iso(r.end))}::timestamptz[]`;

/**
 * The scope's traces over the ranges (alias `t`, each beside its range `r`), as the trace list filters them. Probed
 * range by range (LATERAL … OFFSET 0): joined to the unnested ranges, whose bounds the planner cannot see, the
 * traces were scanned whole (the raw half of a 24-hour read, two partial hours, scanned every trace).
 */
function tracesOver(organizationId: string, ranges: TRange[], fn: string | undefined): Sql {
  return sql`unnest(${starts(ranges)}, ${ends(ranges)}) AS r(s, e)
    CROSS JOIN LATERAL (
      SELECT t.organization_id, t.id, t.trace_function_key, t.status, t.started_at, t.ended_at, t.cost_usd FROM traces t
      WHERE t.organization_id = ${organizationId}::uuid AND NOT t.dropped AND t.test_run_id IS NULL
        AND t.started_at >= r.s AND t.started_at < r.e
        ${fn === undefined ? empty : sql`AND t.trace_function_key = ${fn.slice(1)}`}
      OFFSET 0) t`;
}

const latencyMs = sql`EXTRACT(EPOCH FROM t.ended_at - t.started_at)::float8 * 1000`;
const latencyBucket = sql`CASE WHEN ${latencyMs} < 1 THEN 0 ELSE 1 + floor(ln(${latencyMs}) / ln(${raw(String(LATENCY_RATIO))}::float8))::int END`;
const zeros = (n: number) => raw(Array(n).fill("0::bigint").join(", "));
const noHistogram = sql`'{}'::int[], '{}'::int[]`;

const ALL_KINDS: TRollupKind[] = ["traces", "model", "llm", "grader", "verdict"];

/**
 * The kinds' aggregates per (hour, trace function, key) of the scope's traces that started in the ranges, in
 * dashboard_rollups' column order. An LLM span counts with its trace when it started from its range's start to a
 * day after its end (the dashboard's usage rule, docs/dashboard.md). Labels and spans are probed per trace (LATERAL
 * … OFFSET 0, by the indexes that lead with the trace), never scanned whole: the raw half of a read holds few traces.
 * Each names the organization as a constant, so that Citus plans the whole statement on one shard group.
 */
export function aggregateSql(organizationId: string, ranges: TRange[], fn?: string, kinds: TRollupKind[] = ALL_KINDS): Sql {
  const over = tracesOver(organizationId, ranges, fn);
  const hour = hourOf(sql`t.started_at`);
  const nulls = sql`NULL::bigint, NULL::bigint, NULL::bigint`;
  const parts: Sql[] = [];
  if (kinds.includes("traces")) {
    // Counted per latency bucket (null: not ended), then one row per hour and function with the histogram's arrays.
    parts.push(sql`
    SELECT b.organization_id, b.hour, b.fn, 'traces' AS kind, '' AS key, sum(b.n)::bigint AS traces, sum(b.errors)::bigint AS errors,
      0::bigint, 0::bigint, ${nulls}, sum(b.cost_usd), 0::bigint, 0::bigint,
      COALESCE(array_agg(b.bucket ORDER BY b.bucket) FILTER (WHERE b.bucket IS NOT NULL), '{}'::int[]),
      COALESCE(array_agg(b.n::int ORDER BY b.bucket) FILTER (WHERE b.bucket IS NOT NULL), '{}'::int[])
    FROM (
      SELECT t.organization_id, ${hour} AS hour, ${fnOf} AS fn, CASE WHEN t.ended_at IS NOT NULL THEN ${latencyBucket} END AS bucket,
        count(*) AS n, count(*) FILTER (WHERE t.status = 'failed') AS errors, sum(t.cost_usd) AS cost_usd
      FROM ${over} GROUP BY 1, 2, 3, 4) b
    GROUP BY 1, 2, 3`);
  }
  if (kinds.includes("model") || kinds.includes("llm")) {
    parts.push(sql`
    SELECT t.organization_id, ${hour}, ${fnOf}, CASE WHEN GROUPING(s.model) = 0 THEN 'model' ELSE 'llm' END,
      COALESCE(s.model, ''), count(DISTINCT t.id), 0::bigint, count(*),
      count(*) FILTER (WHERE s.cost_usd IS NULL AND (s.input_tokens IS NOT NULL OR s.output_tokens IS NOT NULL OR s.total_tokens IS NOT NULL)),
      sum(s.input_tokens), sum(s.output_tokens),
      sum(COALESCE(s.total_tokens, COALESCE(s.input_tokens, 0) + COALESCE(s.output_tokens, 0))), sum(s.cost_usd), 0::bigint, 0::bigint, ${noHistogram}
    FROM ${over}
    CROSS JOIN LATERAL (
      SELECT s.model, s.cost_usd, s.input_tokens, s.output_tokens, s.total_tokens FROM spans s
      WHERE s.organization_id = ${organizationId}::uuid AND s.trace_id = t.id AND s.model IS NOT NULL
        AND s.started_at >= r.s AND s.started_at < r.e + INTERVAL '1 day'
      OFFSET 0) s
    GROUP BY GROUPING SETS ((t.organization_id, ${hour}, ${fnOf}, s.model), (t.organization_id, ${hour}, ${fnOf}))`);
  }
  if (kinds.includes("grader")) {
    parts.push(sql`
    SELECT t.organization_id, ${hour}, ${fnOf}, 'grader', g.grader_id::text, ${zeros(4)}, ${nulls}, NULL::numeric,
      count(*) FILTER (WHERE g.label), count(*) FILTER (WHERE NOT g.label), ${noHistogram}
    FROM ${over}
    CROSS JOIN LATERAL (
      SELECT g.grader_id, g.label FROM grader_labels g
      WHERE g.organization_id = ${organizationId}::uuid AND g.trace_id = t.id AND g.label IS NOT NULL OFFSET 0) g
    GROUP BY 1, 2, 3, 5`);
  }
  if (kinds.includes("verdict")) {
    parts.push(sql`
    SELECT t.organization_id, ${hour}, ${fnOf}, 'verdict', l.label_source, ${zeros(4)}, ${nulls}, NULL::numeric,
      count(DISTINCT t.id) FILTER (WHERE l.label), count(DISTINCT t.id) FILTER (WHERE NOT l.label), ${noHistogram}
    FROM ${over}
    CROSS JOIN LATERAL (
      SELECT l.label_source, l.label FROM trace_labels l
      WHERE l.organization_id = ${organizationId}::uuid AND l.trace_id = t.id AND l.assertion_id IS NULL
        AND l.superseded_at IS NULL AND l.label_status = 'labeled' AND l.label IS NOT NULL OFFSET 0) l
    GROUP BY 1, 2, 3, 5`);
  }
  return join(parts, " UNION ALL ");
}

const rowColumns = sql`traces::float8 AS traces, errors::float8 AS errors, spans::float8 AS spans, unpriced_spans::float8 AS "unpricedSpans",
  input_tokens::float8 AS "inputTokens", output_tokens::float8 AS "outputTokens", total_tokens::float8 AS "totalTokens",
  cost_usd::float8 AS "costUsd", pass::float8 AS pass, fail::float8 AS fail, latency_buckets AS "latencyBuckets", latency_counts AS "latencyCounts"`;

/** The aggregates over raw rows, for the hours the dashboard does not read from rollups. */
export function selectAggregates(db: DbClient, organizationId: string, ranges: TRange[], fn: string | undefined, kinds: TRollupKind[]) {
  if (ranges.length === 0) return Promise.resolve([] as TRollupRow[]);
  return db.sql.query<TRollupRow>(sql`
    SELECT hour AS at, fn, kind, key, ${rowColumns}
    FROM (${aggregateSql(organizationId, ranges, fn, kinds)}) AS a(organization_id, hour, fn, kind, key, traces, errors, spans,
      unpriced_spans, input_tokens, output_tokens, total_tokens, cost_usd, pass, fail, latency_buckets, latency_counts)`);
}

export interface TRollupReadOptions {
  kinds: TRollupKind[];
  /** Group by chart bucket (date_bin of the hour by this step from this origin), else over the whole range. */
  bucket?: { stepSeconds: number; origin: Date };
  byFn: boolean;
  fn?: string;
}

const rollupsOver = (organizationId: string, ranges: TRange[], kinds: TRollupKind[], fn: string | undefined) => sql`
    unnest(${starts(ranges)}, ${ends(ranges)}) AS r(s, e)
    JOIN dashboard_rollups u ON u.organization_id = ${organizationId}::uuid AND u.hour >= r.s AND u.hour < r.e
      AND u.kind = ANY(${kinds}::text[]) ${fn === undefined ? empty : sql`AND u.fn = ${fn}`}`;
const atOf = (bucket: TRollupReadOptions["bucket"]) =>
  bucket ? sql`date_bin(${bucket.stepSeconds}::int * INTERVAL '1 second', u.hour, ${iso(bucket.origin)}::timestamptz)` : sql`NULL::timestamptz`;

/** Sums of stored rollups over whole hours (the ranges), grouped as the chart needs; not the 'traces' kind. */
export function selectRollups(db: DbClient, organizationId: string, ranges: TRange[], o: TRollupReadOptions) {
  if (ranges.length === 0) return Promise.resolve([] as TRollupRow[]);
  return db.sql.query<TRollupRow>(sql`
    SELECT ${atOf(o.bucket)} AS at, ${o.byFn ? sql`u.fn` : sql`NULL::text`} AS fn, u.kind, u.key, sum(u.traces)::float8 AS traces, sum(u.errors)::float8 AS errors,
      sum(u.spans)::float8 AS spans, sum(u.unpriced_spans)::float8 AS "unpricedSpans", sum(u.input_tokens)::float8 AS "inputTokens",
      sum(u.output_tokens)::float8 AS "outputTokens", sum(u.total_tokens)::float8 AS "totalTokens", sum(u.cost_usd)::float8 AS "costUsd",
      sum(u.pass)::float8 AS pass, sum(u.fail)::float8 AS fail, '{}'::int[] AS "latencyBuckets", '{}'::int[] AS "latencyCounts"
    FROM ${rollupsOver(organizationId, ranges, o.kinds, o.fn)}
    GROUP BY 1, 2, 3, 4`);
}

/**
 * The stored 'traces' rows over whole hours (the ranges), summed as the chart groups them, each group's latency
 * histogram merged bucket by bucket here (SQL has no sum of arrays, and unnesting them would make a row per bucket
 * again). The group's histograms come as one JSON text: PGlite parses every value of a result in JavaScript, and
 * a 30-day read of the rows one by one (5,760 of them, two arrays each) took 130 ms on it, as JSON 20.
 */
export async function selectTraceRollups(db: DbClient, organizationId: string, ranges: TRange[], o: Omit<TRollupReadOptions, "kinds">): Promise<TRollupRow[]> {
  if (ranges.length === 0) return [];
  const rows = await db.sql.query<Pick<TRollupRow, "at" | "fn" | "traces" | "errors" | "costUsd"> & { histograms: string }>(sql`
    SELECT ${atOf(o.bucket)} AS at, ${o.byFn ? sql`u.fn` : sql`NULL::text`} AS fn, sum(u.traces)::float8 AS traces, sum(u.errors)::float8 AS errors,
      sum(u.cost_usd)::float8 AS "costUsd", json_agg(json_build_array(u.latency_buckets, u.latency_counts))::text AS histograms
    FROM ${rollupsOver(organizationId, ranges, ["traces"], o.fn)}
    GROUP BY 1, 2`);
  return rows.map(({ histograms, ...r }) => {
    const hist = new Map<number, number>();
    for (const [buckets, counts] of JSON.parse(histograms) as Array<[number[], number[]]>) {
      for (let i = 0; i < buckets.length; i++) hist.set(buckets[i]!, (hist.get(buckets[i]!) ?? 0) + counts[i]!);
    }
    const latencyBuckets = [...hist.keys()].sort((a, b) => a - b);
    return {
      ...r, kind: "traces", key: "", spans: 0, unpricedSpans: 0, inputTokens: null, outputTokens: null, totalTokens: null, pass: 0, fail: 0,
      latencyBuckets, latencyCounts: latencyBuckets.map((b) => hist.get(b)!),
    };
  });
}

export interface TRollupState {
  /** Hours before it are rolled up; null: none yet. */
  rolledTo: Date | null;
  watermark: Date | null;
}

export async function selectState(db: DbClient, organizationId: string, lock = false): Promise<TRollupState | null> {
  const rows = await db.sql.query<TRollupState>(sql`
    SELECT rolled_to AS "rolledTo", watermark FROM dashboard_rollup_state WHERE organization_id = ${organizationId}::uuid
    ${lock ? sql`FOR UPDATE` : empty}`);
  const s = rows[0];
  return s ? { rolledTo: s.rolledTo && new Date(s.rolledTo), watermark: s.watermark && new Date(s.watermark) } : null;
}

/** Hours in [from, to) that the rollups may not hold right: marked dirty, or with a late change since `since`. */
export async function selectStaleHours(db: DbClient, organizationId: string, from: Date, to: Date, since: Date): Promise<Date[]> {
  const rows = await db.sql.query<{ hour: Date }>(sql`
    SELECT hour FROM dashboard_rollup_dirty
    WHERE organization_id = ${organizationId}::uuid AND hour >= ${iso(from)}::timestamptz AND hour < ${iso(to)}::timestamptz
    UNION
    SELECT DISTINCT ${hourOf(sql`t.started_at`)} FROM traces t
    WHERE t.organization_id = ${organizationId}::uuid AND t.updated_at > ${iso(since)}::timestamptz
      AND t.updated_at - t.started_at > INTERVAL '1 hour'
      AND t.started_at >= ${iso(from)}::timestamptz AND t.started_at < ${iso(to)}::timestamptz`);
  return rows.map((r) => new Date(r.hour));
}

/**
 * Marks the hours of these traces stale (a change outside ingestion: a delete, a label, a price recompute), in the
 * caller's transaction, before the change. The mark is the writer's token, so the job removes only marks it read.
 */
export async function markTracesChanged(db: DbClient, organizationId: string, traceIds: string[]): Promise<void> {
  if (traceIds.length === 0) return;
  await db.sql.query(sql`
    INSERT INTO dashboard_rollup_dirty (organization_id, hour, mark)
    SELECT t.organization_id, ${hourOf(sql`t.started_at`)}, ${randomUUID()}::uuid FROM traces t
    WHERE t.organization_id = ${organizationId}::uuid AND t.id = ANY(${traceIds}::uuid[]) AND t.started_at IS NOT NULL
    GROUP BY 1, 2
    ON CONFLICT (organization_id, hour) DO UPDATE SET mark = EXCLUDED.mark`);
}

/** The job's clock: the database's, read once per run. */
export async function selectNow(db: DbClient): Promise<Date> {
  const [row] = await db.sql.query<{ now: Date }>(sql`SELECT now() AS now`);
  return new Date(row!.now);
}

/** Every organization (the job rolls up each). */
export async function selectOrganizationIds(db: DbClient): Promise<string[]> {
  const rows = await db.sql.query<{ id: string }>(sql`SELECT id::text AS id FROM organizations ORDER BY id`);
  return rows.map((r) => r.id);
}

/** Graders' names, for the rows of the grader chart. */
export async function selectGraderNames(db: DbClient, organizationId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.sql.query<{ id: string; name: string }>(sql`
    SELECT id::text AS id, name FROM graders WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The earliest start of the organization's traces at or after `after` (all when null): where rolling resumes. */
export async function selectFirstTraceStart(db: DbClient, organizationId: string, after: Date | null): Promise<Date | null> {
  const [row] = await db.sql.query<{ at: Date | null }>(sql`
    SELECT min(started_at) AS at FROM traces WHERE organization_id = ${organizationId}::uuid AND NOT dropped
    ${after === null ? empty : sql`AND started_at >= ${iso(after)}::timestamptz`}`);
  return row?.at ? new Date(row.at) : null;
}

/** The organization's dirty marks. */
export async function selectDirty(db: DbClient, organizationId: string): Promise<Array<{ hour: Date; mark: string }>> {
  const rows = await db.sql.query<{ hour: Date; mark: string }>(sql`
    SELECT hour, mark::text AS mark FROM dashboard_rollup_dirty WHERE organization_id = ${organizationId}::uuid`);
  return rows.map((r) => ({ hour: new Date(r.hour), mark: r.mark }));
}

export async function deleteDirty(db: DbClient, organizationId: string, marks: Array<{ hour: Date; mark: string }>): Promise<void> {
  if (marks.length === 0) return;
  await db.sql.query(sql`
    DELETE FROM dashboard_rollup_dirty d USING unnest(${marks.map((m) => iso(m.hour))}::timestamptz[], ${marks.map((m) => m.mark)}::uuid[]) AS m(hour, mark)
    WHERE d.organization_id = ${organizationId}::uuid AND d.hour = m.hour AND d.mark = m.mark`);
}

/** Hours with a late change (a write over an hour after the trace's start) since `since`, before `before`. */
export async function selectLateChangedHours(db: DbClient, organizationId: string, since: Date, before: Date): Promise<Date[]> {
  const rows = await db.sql.query<{ hour: Date }>(sql`
    SELECT DISTINCT ${hourOf(sql`t.started_at`)} AS hour FROM traces t
    WHERE t.organization_id = ${organizationId}::uuid AND t.updated_at > ${iso(since)}::timestamptz
      AND t.updated_at - t.started_at > INTERVAL '1 hour' AND t.started_at < ${iso(before)}::timestamptz`);
  return rows.map((r) => new Date(r.hour));
}

/** Replaces the rollups of the ranges' hours with fresh aggregates of the raw rows. */
export async function recomputeRanges(db: DbClient, organizationId: string, ranges: TRange[]): Promise<void> {
  if (ranges.length === 0) return;
  await db.sql.query(sql`
    DELETE FROM dashboard_rollups u USING unnest(${starts(ranges)}, ${ends(ranges)}) AS r(s, e)
    WHERE u.organization_id = ${organizationId}::uuid AND u.hour >= r.s AND u.hour < r.e`);
  await db.sql.query(sql`
    INSERT INTO dashboard_rollups (organization_id, hour, fn, kind, key, traces, errors, spans, unpriced_spans,
      input_tokens, output_tokens, total_tokens, cost_usd, pass, fail, latency_buckets, latency_counts)
    ${aggregateSql(organizationId, ranges)}`);
}

export async function upsertState(db: DbClient, organizationId: string, state: TRollupState, at: Date): Promise<void> {
  await db.sql.query(sql`
    INSERT INTO dashboard_rollup_state (organization_id, rolled_to, watermark, updated_at)
    VALUES (${organizationId}::uuid, ${state.rolledTo && iso(state.rolledTo)}::timestamptz, ${state.watermark && iso(state.watermark)}::timestamptz, ${iso(at)}::timestamptz)
    ON CONFLICT (organization_id) DO UPDATE SET rolled_to = EXCLUDED.rolled_to, watermark = EXCLUDED.watermark, updated_at = EXCLUDED.updated_at`);
}

/** Takes the organization's state row lock (creating the row as "nothing rolled up" if missing). */
export async function lockState(db: DbClient, organizationId: string, at: Date): Promise<TRollupState> {
  await db.sql.query(sql`
    INSERT INTO dashboard_rollup_state (organization_id, rolled_to, watermark, updated_at)
    VALUES (${organizationId}::uuid, NULL, NULL, ${iso(at)}::timestamptz)
    ON CONFLICT (organization_id) DO NOTHING`);
  return (await selectState(db, organizationId, true))!;
}
