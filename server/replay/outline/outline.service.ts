// Loads trace outlines for many traces at once: one span query and the shared trace metrics (two grouped
// queries), whatever the number of traces.
import type { Database } from "../../db/client.ts";
import { getTraceMetrics, type TTraceMetrics } from "../../traces/traces.service.ts";
import { toTraceOutline, type OutlineTrace } from "./outline.ts";
import type { TTraceOutline } from "./outline.schemas.ts";
import { selectOutlineSpans, type TOutlineSpanRow } from "./outline.queries.ts";

type OutlineSource = OutlineTrace & { startedAt: Date | null; endedAt: Date | null };

export interface TraceOutlines {
  outlines: Map<string, TTraceOutline>;
  /** Trace metrics (tokens = sums over the trace's spans, docs/api/traces.md, "Trace object") by trace id. */
  metrics: Map<string, TTraceMetrics>;
}

export async function findTraceOutlines(db: Database, organizationId: string, traces: OutlineSource[]): Promise<TraceOutlines> {
  const unique = [...new Map(traces.map((t) => [t.id, t])).values()];
  if (unique.length === 0) return { outlines: new Map(), metrics: new Map() };
  const ids = unique.map((t) => t.id);
  const [spans, metrics] = await Promise.all([
    selectOutlineSpans(db, organizationId, ids),
    getTraceMetrics(db, organizationId, unique),
  ]);
  const byTrace = new Map<string, TOutlineSpanRow[]>();
  for (const s of spans) {
    const list = byTrace.get(s.traceId);
    if (list) list.push(s);
    else byTrace.set(s.traceId, [s]);
  }
  const outlines = new Map(unique.map((t) => [t.id, toTraceOutline(t, byTrace.get(t.id) ?? [], metrics.get(t.id))]));
  return { outlines, metrics };
}
