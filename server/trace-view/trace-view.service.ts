// The trace page's span waterfall: every stored span, content-off ones included and
// marked (the console shows what the sim plan withheld; the SDK-facing trees leave them out), in the
// shared tree order (server/shared/tree.ts), with offsets from the trace start for the bars. Read a window
// at a time, with a search that names the ancestors to expand, so a 100,000-span trace stays bounded.
import type { Database } from "../db/client.ts";
import { outlineErrors, spanTokens } from "../replay/outline/outline.ts";
import { resolveInstrumentation } from "../shared/instrumentation.ts";
import { notFound } from "../errors.ts";
import * as q from "./trace-view.queries.ts";
import { toTreeOrder } from "./tree-order.ts";
import { escapeLike, getTrace } from "../traces/traces.service.ts";
import type { TTraceSpanAggregateRow } from "../traces/traces.queries.ts";

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

/** A waterfall row with its place in the whole tree: what the console needs to page, collapse and jump. */
export interface TWaterfallRow extends TWaterfallSpan {
  /** Its position in the whole trace's depth-first order. */
  index: number;
  /** How many spans its subtree holds below it: collapsed, the rows index + 1 … index + descendants hide. */
  descendants: number;
}

/** One window of a trace's waterfall, with what the whole tree holds. */
export interface TWaterfallWindow {
  spans: TWaterfallRow[];
  /** The trace's span count: the tree's rows. */
  total: number;
  totalMs: number;
  /** The instrumentations its spans were recorded with (docs/otel.md), each once. */
  instrumentations: string[];
}

/** The console reads at most this many rows of a waterfall at once (docs/api/console.md, "Trace page"). */
export const WATERFALL_WINDOW_MAX = 1000;

/**
 * A trace's tree without its content: the spans' ids in depth-first order (children in start order,
 * server/shared/tree.ts) with their depths, parents and subtree sizes, the time line's origin and length.
 * About 100 bytes a span: a 100,000-span trace's is ~10 MB, where its rows with what the waterfall shows
 * were ~1 GB of the server's memory once parsed, copied and sent whole.
 */
interface TreeIndex {
  version: string;
  ids: string[];
  depth: Int32Array;
  parent: Int32Array;
  descendants: Int32Array;
  childCount: Int32Array;
  position: Map<string, number>;
  origin: number;
  totalMs: number;
  instrumentations: string[];
  /** The trace's metrics' aggregate rows, which change only with its spans. */
  aggregates: TTraceSpanAggregateRow[];
}

/**
 * The last few trees read, by organization and trace, each kept while its trace's version (its updated_at, which
 * every write of the trace or its spans moves) is unchanged: scrolling a 100,000-span tree reads a window of
 * rows by primary key, not the whole skeleton again.
 */
const trees = new Map<string, TreeIndex>();
const TREES_KEPT = 4;

async function treeIndex(db: Database, organizationId: string, traceId: string): Promise<TreeIndex> {
  const key = `${organizationId}/${traceId}`;
  const kept = trees.get(key);
  if (kept) {
    const version = await q.selectTraceVersion(db, organizationId, traceId);
    if (version === null) throw notFound(`Trace ${traceId}`);
    if (version === kept.version) {
      trees.delete(key);
      trees.set(key, kept);
      return kept;
    }
  }
  const skeleton = await q.selectTraceSkeleton(db, organizationId, traceId);
  if (skeleton.version === null) throw notFound(`Trace ${traceId}`);
  const index = { ...toTreeIndex(skeleton.version, skeleton), aggregates: skeleton.aggregates };
  trees.delete(key);
  trees.set(key, index);
  while (trees.size > TREES_KEPT) trees.delete(trees.keys().next().value!);
  return index;
}

function toTreeIndex(version: string, skeleton: Awaited<ReturnType<typeof q.selectTraceSkeleton>>): Omit<TreeIndex, "aggregates"> {
  const origin = skeleton.origin ?? 0;
  const instrumentations = [...new Set(skeleton.instrumentations.map((f) => resolveInstrumentation(f.instrumentation, f.source, f.root)).filter((x): x is string => !!x))].sort();
  const totalMs = skeleton.last === null ? 0 : Math.max(0, skeleton.last - origin);
  return { version, ...toTreeOrder(skeleton.spans), origin, totalMs, instrumentations };
}

/**
 * Rows offset … offset + limit - 1 of a trace's waterfall in depth-first tree order (children in start order),
 * every stored span, content-off ones included and marked; another organization's or an unknown trace is a 404.
 */
export async function findWaterfallWindow(db: Database, organizationId: string, traceId: string, offset: number, limit: number): Promise<TWaterfallWindow> {
  return windowOf(db, organizationId, await treeIndex(db, organizationId, traceId), offset, limit);
}

async function windowOf(db: Database, organizationId: string, tree: TreeIndex, offset: number, limit: number): Promise<TWaterfallWindow> {
  const ids = tree.ids.slice(offset, offset + Math.min(limit, WATERFALL_WINDOW_MAX));
  const rows = new Map((await q.selectWaterfallRows(db, organizationId, ids)).map((r) => [r.id, r]));
  const spans: TWaterfallRow[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    // A span deleted since the tree was read (a dropped trace's) is left out rather than failing the window.
    if (!row) continue;
    const at = tree.position.get(id)!;
    spans.push({ ...toWaterfallSpan(row, tree, at), index: at, descendants: tree.descendants[at]! });
  }
  return { spans, total: tree.ids.length, totalMs: tree.totalMs, instrumentations: tree.instrumentations };
}

/** A span a waterfall search found, with the ids of its ancestors (root first) for the console to expand. */
export interface TWaterfallMatch {
  id: string;
  name: string;
  type: string;
  index: number;
  depth: number;
  ancestorIds: string[];
}

/**
 * Spans of one trace whose name or type contains `text` (case-insensitive), at most `limit` in tree order;
 * `more` when there were others.
 */
export async function searchWaterfall(db: Database, organizationId: string, traceId: string, text: string, limit: number): Promise<{ matches: TWaterfallMatch[]; more: boolean }> {
  const tree = await treeIndex(db, organizationId, traceId);
  const found = await q.selectSpansMatching(db, organizationId, traceId, `%${escapeLike(text)}%`, limit + 1);
  const located = found.flatMap((f) => {
    const index = tree.position.get(f.id);
    return index === undefined ? [] : [{ ...f, index }];
  }).sort((a, b) => a.index - b.index);
  const matches = located.slice(0, limit).map((m) => {
    const ancestorIds: string[] = [];
    for (let p = tree.parent[m.index]!; p >= 0; p = tree.parent[p]!) ancestorIds.push(tree.ids[p]!);
    return { id: m.id, name: m.name, type: m.type, index: m.index, depth: tree.depth[m.index]!, ancestorIds: ancestorIds.reverse() };
  });
  return { matches, more: found.length > limit };
}

/**
 * The trace page's trace (getTrace, its metrics from the tree's read of its spans) and the first window of its
 * waterfall (findWaterfallWindow); another organization's or an unknown id is a 404.
 */
export async function getTraceWithWaterfall(db: Database, organizationId: string, traceId: string, limit: number) {
  const tree = await treeIndex(db, organizationId, traceId);
  const [trace, waterfall] = await Promise.all([getTrace(db, organizationId, traceId, tree.aggregates), windowOf(db, organizationId, tree, 0, limit)]);
  return { trace, waterfall };
}

/** The names of a trace's spans with how many carry each, for assertion targets (at most 1,000 names). */
export const findSpanNames = (db: Database, organizationId: string, traceId: string) => q.selectSpanNameCounts(db, organizationId, traceId, 1000);

function toWaterfallSpan(r: q.TWaterfallSpanRow, tree: TreeIndex, at: number): TWaterfallSpan {
  const durationMs = r.durationMs ?? (r.startedAt !== null && r.endedAt !== null ? Math.max(0, r.endedAt - r.startedAt) : null);
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    depth: tree.depth[at]!,
    offsetMs: r.startedAt !== null ? r.startedAt - tree.origin : null,
    durationMs,
    tokens: spanTokens(r),
    model: r.model,
    errors: outlineErrors(r),
    mocked: r.mocked,
    contentOff: r.contentOffBySimulationPlan,
    instrumentation: resolveInstrumentation(r.instrumentation, r.source, r.parentSpanId === null),
    final: r.isFinal,
    childCount: tree.childCount[at]!,
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
