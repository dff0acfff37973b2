// Trace outlines (docs/replay.md, "Complete"): the span tree without inputs or
// outputs. Pure functions over span rows, so the shape is unit-tested without a database.
import type { TTokens } from "../../traces/traces.schemas.ts";
import type { TTraceMetrics } from "../../traces/trace-metrics.ts";
import type { TOutlineSpan, TSpanError, TTraceOutline } from "./outline.schemas.ts";
import type { TOutlineSpanRow } from "./outline.queries.ts";
import { buildForest, type TreeNode } from "../../shared/tree.ts";
import { traceTitle } from "../../shared/trace-title.ts";

export interface OutlineTrace {
  id: string;
  name: string | null;
  status: string;
  traceFunctionKey: string | null;
}

interface ErrorCarrier {
  error: string | null;
  errors: unknown;
  contentOffBySimulationPlan: boolean;
}

/**
 * A span the sim plan withheld content of is left out unless it recorded an error (docs/replay.md, "Complete").
 * Capture-quality notes (`source: "sdk"`, docs/api/ingestion.md, "Data hygiene") are not errors of the operation.
 */
export function isWithheld(row: ErrorCarrier): boolean {
  return row.contentOffBySimulationPlan && !recordedError(row);
}

function recordedError(row: ErrorCarrier): boolean {
  if (row.error) return true;
  return spanErrors(row.errors).some((e) => e.source !== "sdk");
}

/** `{source, error, step?}` entries of the stored errors list; anything else is ignored. */
export function spanErrors(value: unknown): TSpanError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((e) => {
    if (typeof e !== "object" || e === null) return [];
    const { source, error, step } = e as Record<string, unknown>;
    if (typeof error !== "string") return [];
    return [{ source: typeof source === "string" ? source : "sdk", error, ...(typeof step === "string" ? { step } : {}) }];
  });
}

/** The span's own error comes first, as `{source: "code"}`; null when there is nothing. */
export function outlineErrors(row: ErrorCarrier): TSpanError[] | null {
  const list = [...(row.error ? [{ source: "code", error: row.error }] : []), ...spanErrors(row.errors)];
  return list.length ? list : null;
}

/**
 * Token usage of one span from its stored columns; total falls back to input + output (docs/api/ingestion.md,
 * "Span payload").
 */
export function spanTokens(r: Pick<TOutlineSpanRow, "inputTokens" | "outputTokens" | "cachedTokens" | "totalTokens">): TTokens {
  if (r.inputTokens === null && r.outputTokens === null && r.cachedTokens === null && r.totalTokens === null) return null;
  const input = r.inputTokens ?? 0;
  const output = r.outputTokens ?? 0;
  return { input, output, cached: r.cachedTokens ?? 0, total: r.totalTokens ?? input + output };
}

function spanDuration(r: TOutlineSpanRow): number | null {
  if (r.durationMs !== null) return r.durationMs;
  if (!r.startedAt || !r.endedAt) return null;
  return Math.max(0, r.endedAt.getTime() - r.startedAt.getTime());
}

function toOutlineSpan(node: TreeNode<TOutlineSpanRow>): TOutlineSpan {
  const r = node.row;
  return {
    spanId: r.sourceSpanId,
    name: r.name,
    type: r.type,
    traceFunctionKey: r.traceFunctionKey,
    durationMs: spanDuration(r),
    tokens: spanTokens(r),
    model: r.model,
    errors: outlineErrors(r),
    mocked: r.mocked,
    children: node.children.map(toOutlineSpan),
  };
}

/** One trace's outline; `spanCount` counts every stored span, including those the tree leaves out. */
export function toTraceOutline(trace: OutlineTrace, spans: TOutlineSpanRow[], metrics: TTraceMetrics | undefined): TTraceOutline {
  return {
    traceId: trace.id,
    name: traceTitle(trace.name, trace.traceFunctionKey),
    status: trace.status,
    traceFunctionKey: trace.traceFunctionKey,
    durationMs: metrics?.durationMs ?? null,
    spanCount: spans.length,
    spans: buildForest(spans, (r) => !isWithheld(r)).map(toOutlineSpan),
  };
}
