// The console's trace page read model: the spans of one trace with what the waterfall shows (no content),
// and the organization's trace function keys for the list filters. Every query filters by organization.
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";

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
