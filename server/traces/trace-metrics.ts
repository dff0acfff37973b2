// Derived trace metrics (docs/api/traces.md, "Trace object"): tokens are sums over the trace's spans (null when no
// span has token data), the model is the most frequent among its spans (earliest first occurrence on ties).
import type { TTokens } from "./traces.schemas.ts";

export interface TTraceMetrics {
  spanCount: number;
  durationMs: number | null;
  tokens: TTokens;
  model: string | null;
  /** False when a span was trimmed or not captured exactly (faithful.ts). */
  faithful: boolean;
  /** The capture-note steps that made it unfaithful, sorted. */
  captureIssues: string[];
}

export interface SpanAggregate {
  count: number;
  /** How many spans reported each token kind. */
  reported: { input: number; output: number; cached: number; total: number };
  sum: { input: number | null; output: number | null; cached: number | null; total: number | null };
  firstStart: Date | null;
  lastEnd: Date | null;
}

export interface ModelCount {
  model: string;
  count: number;
  firstSeen: Date | null;
}

export const EMPTY_METRICS: TTraceMetrics = { spanCount: 0, durationMs: null, tokens: null, model: null, faithful: true, captureIssues: [] };

export function tokensOf(a: SpanAggregate | undefined): TTokens {
  if (!a) return null;
  const r = a.reported;
  if (r.input + r.output + r.cached + r.total === 0) return null;
  return { input: a.sum.input ?? 0, output: a.sum.output ?? 0, cached: a.sum.cached ?? 0, total: a.sum.total ?? 0 };
}

/** Most frequent model; ties go to the one seen first, then to the smaller name so the answer is stable. */
export function pickModel(models: ModelCount[]): string | null {
  let best: ModelCount | undefined;
  for (const m of models) {
    if (!best || m.count > best.count || (m.count === best.count && earlier(m, best))) best = m;
  }
  return best?.model ?? null;
}

function earlier(a: ModelCount, b: ModelCount): boolean {
  const ta = a.firstSeen?.getTime() ?? Number.POSITIVE_INFINITY;
  const tb = b.firstSeen?.getTime() ?? Number.POSITIVE_INFINITY;
  return ta !== tb ? ta < tb : a.model < b.model;
}

/**
 * End-to-end wall time: the trace's own start and end (from the completion signal) when both are known,
 * else the span extent.
 */
export function durationOf(trace: { startedAt: Date | null; endedAt: Date | null }, a: SpanAggregate | undefined): number | null {
  const start = trace.startedAt && trace.endedAt ? trace.startedAt : a?.firstStart;
  const end = trace.startedAt && trace.endedAt ? trace.endedAt : a?.lastEnd;
  if (!start || !end) return null;
  return Math.max(0, end.getTime() - start.getTime());
}
