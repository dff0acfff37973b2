// The console's trace page read model: the spans of one trace with what the waterfall shows (no content),
// and the organization's trace function keys for the list filters. Every query filters by organization.
import type { DbClient } from "../db/client.ts";
import { sql, uuidArray } from "../db/sql.ts";

/** A span's columns the waterfall shows (spanTimingSelect plus instrumentation, source and the final flag). */
export interface TWaterfallSpanRow {
  id: string;
  parentSpanId: string | null;
  name: string;
  type: string;
  startedAt: Date | null;
  endedAt: Date | null;
  createdAt: Date;
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
 * Through the driver rather than Prisma: an agent loop's trace holds 10,000 spans, and reading that many
 * rows through Prisma took twice as long (0.9–1.7 s against 0.4–0.7 s on the busy benchmark box).
 */
export function selectWaterfallSpans(db: DbClient, organizationId: string, traceId: string): Promise<TWaterfallSpanRow[]> {
  return db.sql.query<TWaterfallSpanRow>(sql`
    SELECT id::text, parent_span_id::text AS "parentSpanId", name, type, started_at AS "startedAt", ended_at AS "endedAt",
      created_at AS "createdAt", duration_ms AS "durationMs", input_tokens AS "inputTokens", output_tokens AS "outputTokens",
      cached_tokens AS "cachedTokens", total_tokens AS "totalTokens", model, error, errors, mocked,
      content_off_by_simulation_plan AS "contentOffBySimulationPlan", instrumentation, source, is_final AS "isFinal"
    FROM spans WHERE organization_id = ${organizationId}::uuid AND trace_id = ${traceId}::uuid`);
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
