// The trace page's span waterfall: every stored span, content-off ones included and
// marked (the console shows what the sim plan withheld; the SDK-facing trees leave them out), in the
// shared tree order (server/shared/tree.ts), with offsets from the trace start for the bars.
import type { Database } from "../db/client.ts";
import { outlineErrors, spanTokens } from "../replay/outline/outline.ts";
import { resolveInstrumentation } from "../shared/instrumentation.ts";
import { buildForest, type TreeNode } from "../shared/tree.ts";
import * as q from "./trace-view.queries.ts";
import { getTrace } from "../traces/traces.service.ts";
import type { TTrace } from "../traces/traces.schemas.ts";

export interface TWaterfallSpan {
  id: string;
  name: string;
  type: string;
  depth: number;
  /** Milliseconds from the earliest span start; null when the span has no start time. */
  offsetMs: number | null;
  durationMs: number | null;
  tokens: ReturnType<typeof spanTokens>;
  model: string | null;
  errors: ReturnType<typeof outlineErrors>;
  mocked: boolean;
  contentOff: boolean;
  instrumentation: string | null;
  final: boolean;
  childCount: number;
}

/** Spans in depth-first tree order (children in start order), each with its depth; empty for no spans. */
export async function findWaterfall(db: Database, organizationId: string, traceId: string): Promise<{ spans: TWaterfallSpan[]; totalMs: number }> {
  return toWaterfall(await q.selectWaterfallSpans(db, organizationId, traceId));
}

/**
 * The trace page's trace (getTrace) and its waterfall (findWaterfall), from one read of its spans; another
 * organization's or an unknown id is a 404.
 */
export async function getTraceWithWaterfall(db: Database, organizationId: string, traceId: string): Promise<{ trace: TTrace; waterfall: { spans: TWaterfallSpan[]; totalMs: number } }> {
  const { spans, aggregates } = await q.selectTraceSpans(db, organizationId, traceId);
  return { trace: await getTrace(db, organizationId, traceId, aggregates), waterfall: toWaterfall(spans) };
}

function toWaterfall(rows: q.TWaterfallSpanRow[]): { spans: TWaterfallSpan[]; totalMs: number } {
  let origin = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    if (r.startedAt !== null && r.startedAt < origin) origin = r.startedAt;
    const end = r.endedAt ?? (r.startedAt !== null && r.durationMs !== null ? r.startedAt + r.durationMs : null);
    if (end !== null && end > last) last = end;
  }
  if (origin === Number.POSITIVE_INFINITY) origin = 0;
  const totalMs = last === Number.NEGATIVE_INFINITY ? 0 : Math.max(0, last - origin);
  const spans: TWaterfallSpan[] = [];
  const visit = (node: TreeNode<q.TWaterfallSpanRow>, depth: number) => {
    spans.push(toWaterfallSpan(node, depth, origin));
    for (const child of node.children) visit(child, depth + 1);
  };
  for (const root of buildForest(rows)) visit(root, 0);
  return { spans, totalMs };
}

function toWaterfallSpan(node: TreeNode<q.TWaterfallSpanRow>, depth: number, origin: number): TWaterfallSpan {
  const r = node.row;
  const durationMs = r.durationMs ?? (r.startedAt !== null && r.endedAt !== null ? Math.max(0, r.endedAt - r.startedAt) : null);
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    depth,
    offsetMs: r.startedAt !== null ? r.startedAt - origin : null,
    durationMs,
    tokens: spanTokens(r),
    model: r.model,
    errors: outlineErrors(r),
    mocked: r.mocked,
    contentOff: r.contentOffBySimulationPlan,
    instrumentation: resolveInstrumentation(r.instrumentation, r.source, r.parentSpanId === null),
    final: r.isFinal,
    childCount: node.children.length,
  };
}

export const findTraceFunctionKeys = (db: Database, organizationId: string) => q.selectTraceFunctionKeys(db, organizationId);

const PREVIEW_CHARS = 160;

/** Each trace's root input and output, cut to a preview, by trace id (absent when the trace has no root yet). */
export async function findTracePreviews(db: Database, organizationId: string, traceIds: string[]) {
  if (traceIds.length === 0) return new Map<string, { input: string | null; output: string | null }>();
  const rows = await q.selectRootPreviews(db, organizationId, traceIds, PREVIEW_CHARS + 1);
  const cut = (s: string | null) => (s !== null && s.length > PREVIEW_CHARS ? `${s.slice(0, PREVIEW_CHARS)}…` : s);
  return new Map(rows.map((r) => [r.trace_id, { input: cut(r.input), output: cut(r.output) }]));
}

const COMPARED_OUTPUT_CHARS = 50_000;

/**
 * Each trace's root output for the replay comparison's side-by-side diff; `tooLarge` (instead of the value)
 * past 50,000 characters of JSON, so one huge output cannot bloat the page.
 */
export async function findRootOutputs(db: Database, organizationId: string, traceIds: string[]) {
  if (traceIds.length === 0) return {};
  const rows = await q.selectRootOutputs(db, organizationId, traceIds, COMPARED_OUTPUT_CHARS);
  return Object.fromEntries(rows.map((r) => [r.trace_id, r.size > COMPARED_OUTPUT_CHARS ? { tooLarge: true as const, output: null } : { tooLarge: false as const, output: r.output ?? null }]));
}

/** What a live page compares with its last answer to know it must read again (selectTraceChanges). */
export type TTraceChanges = { newest: string | null; watched: string | null };

export const findTraceChanges = (db: Database, organizationId: string, traceIds: readonly string[]): Promise<TTraceChanges> =>
  q.selectTraceChanges(db, organizationId, traceIds);
