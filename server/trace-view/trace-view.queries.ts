// The console's trace page read model: the spans of one trace with what the waterfall shows (no content),
// and the organization's trace function keys for the list filters. Every query filters by organization.
import type { DbClient } from "../db/client.ts";
import { raw, sql, uuidArray, type Sql } from "../db/sql.ts";
import { fromAggregateJson, SPAN_AGGREGATE_COLUMNS, spanAggregates } from "../traces/traces.queries.ts";

/**
 * A span's columns the waterfall shows (spanTimingSelect plus instrumentation, source and the final flag);
 * times in milliseconds since the epoch, since 30,000 Dates for a 10,000-span trace cost the server's thread
 * more than everything else it does with them (bench/README.md, "Session 11").
 */
export interface TWaterfallSpanRow {
  id: string;
  parentSpanId: string | null;
  name: string;
  type: string;
  startedAt: number | null;
  endedAt: number | null;
  createdAt: number;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  totalTokens: number | null;
  model: string | null;
  error: string | null;
  errors: unknown;
  mocked: boolean;
  contentOffBySimulationPlan: boolean;
  instrumentation: string | null;
  /** The payload source, which resolves the instrumentation of spans stored before it existed. */
  source: string | null;
  isFinal: boolean;
}

/**
 * Through the driver rather than Prisma, and as one JSON document of arrays rather than a row per span: Prisma
 * took twice as long as the driver's rows, and on the embedded database turning rows into objects on its thread
 * and copying them across took twice as long as the document (bench/README.md, "Session 9").
 *
 * Milliseconds since the epoch, in floating point throughout: extract() computes in numeric, which took a third
 * of a 10,000-span waterfall's 70 ms of JSON building. Truncated to the millisecond first, the product is within
 * a millionth of the integer round() returns (bench/README.md, "Session 10").
 */
const epochMs = (column: string) => `round(date_part('epoch', date_trunc('milliseconds', ${column})) * 1000)`;

/** A span's JSON array in selectWaterfallRows: these columns in this order (decoded by toWaterfallRow). */
const WATERFALL_COLUMNS = [
  "id", "parent_span_id", "name", "type", epochMs("started_at"), epochMs("ended_at"), epochMs("created_at"), "duration_ms",
  "input_tokens", "output_tokens", "cached_tokens", "total_tokens", "model", "error", "errors", "mocked",
  "content_off_by_simulation_plan", "instrumentation", "source", "is_final",
].join(", ");

function toWaterfallRow(values: unknown[]): TWaterfallSpanRow {
  const [id, parentSpanId, name, type, startedAt, endedAt, createdAt, durationMs, inputTokens, outputTokens, cachedTokens,
    totalTokens, model, error, errors, mocked, contentOffBySimulationPlan, instrumentation, source, isFinal] = values as [
    string, string | null, string, string, number | null, number | null, number, number | null, number | null, number | null,
    number | null, number | null, string | null, string | null, unknown, boolean, boolean, string | null, string | null, boolean,
  ];
  return {
    id, parentSpanId, name, type, startedAt, endedAt, createdAt, durationMs, inputTokens, outputTokens, cachedTokens, totalTokens, model, error, errors, mocked,
    contentOffBySimulationPlan, instrumentation, source, isFinal,
  };
}

/**
 * Every span of one trace as [id, parent id] in start order (the shared tree order's: start, then arrival, then id,
 * times to the millisecond; server/shared/tree.ts), with the time line's origin and end, the trace's metrics'
 * aggregate rows (aggregateTraceSpans), the instrumentations its spans were recorded with (instrumentation, source and whether the span is a root, each
 * combination once) and the trace's stored version (selectTraceVersion). A 100,000-span trace is ~7 MB of text here, where the whole waterfall's rows were ~60 MB.
 *
 * Everything but the capture notes comes from the trace's index (migration 0285), an index-only scan once a
 * vacuum has passed the spans' pages; the notes from the partial index of the spans that carry any. Reading
 * each span's heap row instead took 3-5 s for a 100,000-span trace, and ordering 100,000 children in the
 * server's thread as long again (bench/README.md, "The 100,000-span trace's page").
 */
export async function selectTraceSkeleton(db: DbClient, organizationId: string, traceId: string) {
  const [found] = await db.sql.query<{ version: string | null; spans: string; origin: number | null; last: number | null; instrumentations: string; aggregates: string }>(sql`
    WITH s AS MATERIALIZED (
      SELECT ${raw(SKELETON_SOURCE_COLUMNS)}, e.errors
      FROM spans sp LEFT JOIN (
        SELECT organization_id, id, errors FROM spans
        WHERE organization_id = ${organizationId}::uuid AND trace_id = ${traceId}::uuid AND errors IS NOT NULL
      ) e ON e.organization_id = sp.organization_id AND e.id = sp.id
      WHERE sp.organization_id = ${organizationId}::uuid AND sp.trace_id = ${traceId}::uuid)
    SELECT (SELECT t.updated_at::text FROM traces t WHERE t.organization_id = ${organizationId}::uuid AND t.id = ${traceId}::uuid) AS version,
      (SELECT string_agg(id::text || coalesce(parent_span_id::text, ''), ','
        ORDER BY date_trunc('milliseconds', started_at) NULLS LAST, date_trunc('milliseconds', created_at), id) FROM s) AS spans,
      (SELECT ${raw(epochMs("min(started_at)"))} FROM s) AS origin,
      (SELECT ${raw(epochMs("max(coalesce(ended_at, started_at + duration_ms * interval '1 millisecond'))"))} FROM s) AS last,
      (SELECT coalesce(json_agg(i), '[]')::text FROM (
        SELECT DISTINCT instrumentation, source, parent_span_id IS NULL AS root FROM s) i) AS instrumentations,
      (SELECT coalesce(json_agg(a), '[]')::text FROM (${spanAggregates(sql`s`)}) a) AS aggregates`);
  // Each span as its id's text followed by its parent's (UUIDs, 36 characters each), comma-separated: half the
  // database's time of a JSON array per span.
  const spans = found?.spans ? found.spans.split(",").map((s) => [s.slice(0, 36), s.length > 36 ? s.slice(36) : null] as const) : [];
  const instrumentations = JSON.parse(found?.instrumentations ?? "[]") as Array<{ instrumentation: string | null; source: string | null; root: boolean }>;
  const aggregates = (JSON.parse(found?.aggregates ?? "[]") as Parameters<typeof fromAggregateJson>[0][]).map(fromAggregateJson);
  return { version: found?.version ?? null, spans, origin: found?.origin ?? null, last: found?.last ?? null, instrumentations, aggregates };
}

/**
 * What selectTraceSkeleton reads of each span from the trace's index: the skeleton's columns, and those of the
 * trace's metrics (spanAggregates) but the capture notes, so the page's first read of a trace reads its spans once.
 */
const SKELETON_SOURCE_COLUMNS = [...new Set([
  ...SPAN_AGGREGATE_COLUMNS.filter((c) => c !== "errors"), "id", "parent_span_id", "started_at", "ended_at", "duration_ms", "created_at", "instrumentation", "source",
])].map((c) => `sp.${c}`).join(", ");


/**
 * The trace's version alone (selectTraceSkeleton's): its updated_at, by primary key, which every write of the
 * trace or its spans moves (docs/api/console.md, "Live lists and pages"). Not its span count: counting a
 * freshly ingested 100,000-span trace's index entries visits their heap rows, ~1 s. Null when it is not stored.
 */
export async function selectTraceVersion(db: DbClient, organizationId: string, traceId: string): Promise<string | null> {
  const [found] = await db.sql.query<{ version: string | null }>(sql`
    SELECT updated_at::text AS version FROM traces WHERE organization_id = ${organizationId}::uuid AND id = ${traceId}::uuid`);
  return found?.version ?? null;
}

/**
 * The waterfall rows of the given spans (a window of one trace's tree, whose ids the tree's read gave), by
 * primary key, in no order. Not filtered by trace too: after a bulk ingestion the planner, its statistics stale,
 * took the (organization_id, trace_id, started_at) index and read the trace's 100,000 rows for 500.
 */
export async function selectWaterfallRows(db: DbClient, organizationId: string, spanIds: readonly string[]): Promise<TWaterfallSpanRow[]> {
  if (spanIds.length === 0) return [];
  const [found] = await db.sql.query<{ spans: string }>(sql`
    SELECT coalesce(json_agg(json_build_array(${raw(WATERFALL_COLUMNS)})), '[]')::text AS spans
    FROM spans WHERE organization_id = ${organizationId}::uuid AND id = ANY(${uuidArray(spanIds)})`);
  return (JSON.parse(found?.spans ?? "[]") as unknown[][]).map(toWaterfallRow);
}

/** Spans of one trace whose name or type contains `pattern` (ILIKE, already escaped), at most `limit`, by id. */
export function selectSpansMatching(db: DbClient, organizationId: string, traceId: string, pattern: string, limit: number) {
  return db.sql.query<{ id: string; name: string; type: string }>(sql`
    SELECT id::text AS id, name, type FROM spans
    WHERE organization_id = ${organizationId}::uuid AND trace_id = ${traceId}::uuid AND (name ILIKE ${pattern} OR type ILIKE ${pattern})
    LIMIT ${limit}`);
}

/** Each span name of one trace with how many spans carry it, the earliest-starting first; at most `limit` names. */
export function selectSpanNameCounts(db: DbClient, organizationId: string, traceId: string, limit: number) {
  return db.sql.query<{ name: string; count: number }>(sql`
    SELECT name, count(*)::int AS count FROM spans
    WHERE organization_id = ${organizationId}::uuid AND trace_id = ${traceId}::uuid
    GROUP BY name ORDER BY min(started_at) NULLS LAST, min(created_at), name LIMIT ${limit}`);
}

export async function selectTraceFunctionKeys(db: DbClient, organizationId: string) {
  const rows = await db.prisma.trace.groupBy({
    by: ["traceFunctionKey"],
    where: { organizationId, traceFunctionKey: { not: null }, dropped: false },
    orderBy: { traceFunctionKey: "asc" },
    take: 1000,
  });
  return rows.flatMap((r) => (r.traceFunctionKey ? [r.traceFunctionKey] : []));
}

/**
 * The start of each trace's root-span input and output as text (strings as they are, anything else as JSON
 * text), for the list's preview. Only the first characters leave the database.
 */
export function selectRootPreviews(db: DbClient, organizationId: string, traceIds: string[], chars: number) {
  return db.sql.query<{ trace_id: string; input: string | null; output: string | null }>(sql`
    SELECT DISTINCT ON (trace_id) trace_id::text AS trace_id,
      left(raw_span -> 'span_data' ->> 'input', ${chars}) AS input,
      left(raw_span -> 'span_data' ->> 'output', ${chars}) AS output
    FROM spans
    WHERE organization_id = ${organizationId}::uuid AND trace_id = ANY(${uuidArray(traceIds)}) AND parent_span_id IS NULL
      AND NOT content_off_by_simulation_plan
    ORDER BY trace_id, started_at NULLS LAST, id`);
}

/** Each trace's root-span output as stored (JSON), or null with its size when it is longer than `maxChars`. */
export function selectRootOutputs(db: DbClient, organizationId: string, traceIds: string[], maxChars: number) {
  return db.sql.query<{ trace_id: string; output: unknown; size: number }>(sql`
    SELECT trace_id, CASE WHEN size <= ${maxChars} THEN output END AS output, size FROM (
      SELECT DISTINCT ON (trace_id) trace_id::text AS trace_id, raw_span -> 'span_data' -> 'output' AS output,
        COALESCE(length((raw_span -> 'span_data' -> 'output')::text), 0)::int AS size
      FROM spans
      WHERE organization_id = ${organizationId}::uuid AND trace_id = ANY(${uuidArray(traceIds)}) AND parent_span_id IS NULL
      ORDER BY trace_id, started_at NULLS LAST, id) roots`);
}

/**
 * The live console's poll (docs/api/console.md, "Live lists and pages"): when the organization's newest trace was
 * created, and when the watched traces (those a page shows, at most 100) last changed, as PostgreSQL text at
 * full precision. One statement and two index reads, whatever the organization's size: the first entry of
 * traces' (organization_id, created_at DESC) index, and one primary-key probe per watched trace (LATERAL …
 * OFFSET 0, so the planner cannot turn the probes into a scan of the organization's traces). Every trace
 * write sets updated_at (the ingestion upsert, completion, the detached PATCH), so a change of status, name
 * or spans moves `watched`. Replays and dropped traces move `newest` too: the page then reads its list once
 * more and finds nothing new, which costs one list read, not a wrong answer.
 */
export function traceChangesStatement(organizationId: string, traceIds: readonly string[]): Sql {
  return sql`
    SELECT
      (SELECT t.created_at::text AS at FROM traces t WHERE t.organization_id = ${organizationId}::uuid
        ORDER BY t.created_at DESC LIMIT 1) AS newest,
      (SELECT max(w.updated_at)::text FROM unnest(${uuidArray(traceIds)}) AS u(id)
        CROSS JOIN LATERAL (
          SELECT t.updated_at FROM traces t WHERE t.organization_id = ${organizationId}::uuid AND t.id = u.id OFFSET 0
        ) w) AS watched`;
}

export async function selectTraceChanges(db: DbClient, organizationId: string, traceIds: readonly string[]) {
  const [row] = await db.sql.query<{ newest: string | null; watched: string | null }>(traceChangesStatement(organizationId, traceIds));
  return { newest: row?.newest ?? null, watched: row?.watched ?? null };
}
