// The dashboard's reads through the rollups (docs/scaling.md, "Dashboard"): stored rollups for the range's whole
// hours that are rolled up and clean, the same aggregates over raw rows for the rest (the partial hours at the
// range's edges, hours not rolled up yet, hours a change made stale), merged into the rows the charts already take
// (dashboard.queries.ts's shapes). Null when no hour of the range can come from rollups: the caller then runs the
// exact statements.
import type { DbClient } from "../../../db/client.ts";
import type { TBucketRow, TDashboardScope, TFunctionRow, TGraderBucketRow, TUsageRow, TVerdictRow } from "../dashboard.queries.ts";
import { ceilHour, floorHour, hourRange, subtractRanges } from "./hours.ts";
import * as q from "./rollups.queries.ts";

export interface TRollupPlan {
  /** Whole hours read from rollups. */
  rolled: q.TRange[];
  /** The rest of the range, read raw. */
  raw: q.TRange[];
}

export async function planRead(db: DbClient, s: TDashboardScope): Promise<TRollupPlan | null> {
  const state = await q.selectState(db, s.organizationId);
  if (!state?.rolledTo || !state.watermark) return null;
  const lo = ceilHour(s.from.getTime());
  const hi = Math.min(floorHour(s.to.getTime()), state.rolledTo.getTime());
  if (hi <= lo) return null;
  const since = new Date(state.watermark.getTime() - q.SETTLE_MS);
  const stale = await q.selectStaleHours(db, s.organizationId, new Date(lo), new Date(hi), since);
  const rolled = subtractRanges([{ start: new Date(lo), end: new Date(hi) }], stale.map(hourRange));
  if (rolled.length === 0) return null;
  return { rolled, raw: subtractRanges([{ start: s.from, end: s.to }], rolled) };
}

/**
 * A percentile from a log-spaced histogram, as percentile_cont computes it (interpolating between the two
 * order statistics around its rank), each order statistic read as the geometric middle of its bucket.
 */
export function histogramPercentile(hist: Map<number, number>, p: number): number | null {
  const buckets = [...hist.keys()].sort((a, b) => a - b);
  const n = buckets.reduce((sum, b) => sum + hist.get(b)!, 0);
  if (n === 0) return null;
  const valueAt = (k: number) => {
    let seen = 0;
    for (const b of buckets) {
      seen += hist.get(b)!;
      if (seen > k) return b === 0 ? 0 : q.LATENCY_RATIO ** (b - 0.5);
    }
    return q.LATENCY_RATIO ** (buckets[buckets.length - 1]! - 0.5);
  };
  const rank = p * (n - 1);
  const lo = Math.floor(rank);
  const low = valueAt(lo);
  return rank === lo ? low : low + (rank - lo) * (valueAt(lo + 1) - low);
}

interface TAcc {
  traces: number;
  errors: number;
  costUsd: number | null;
  hist: Map<number, number>;
}
const acc = (): TAcc => ({ traces: 0, errors: 0, costUsd: null, hist: new Map() });
const addCost = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);
const decodeFn = (fn: string | null) => (fn === null || fn === "n" ? null : fn.slice(1));

/** Adds a 'traces' row: its counts, and its histogram bucket by bucket (stored and raw rows alike). */
function addTo(a: TAcc, r: q.TRollupRow) {
  a.traces += r.traces;
  a.errors += r.errors;
  a.costUsd = addCost(a.costUsd, r.costUsd);
  const buckets = r.latencyBuckets;
  for (let i = 0; i < buckets.length; i++) a.hist.set(buckets[i]!, (a.hist.get(buckets[i]!) ?? 0) + r.latencyCounts[i]!);
}
const percentilesOf = (a: TAcc) => ({ p50: histogramPercentile(a.hist, 0.5), p95: histogramPercentile(a.hist, 0.95), p99: histogramPercentile(a.hist, 0.99) });

/** Both halves' rows: rollups grouped as asked, raw aggregates per hour with the hour turned into the chart's bucket. */
async function rowsOf(db: DbClient, s: TDashboardScope, plan: TRollupPlan, kinds: q.TRollupKind[], byBucket: boolean, byFn: boolean) {
  const fn = q.fnCode(s.traceFunctionKey);
  const origin = s.origin ?? s.from;
  const bucket = byBucket ? { stepSeconds: s.stepSeconds, origin } : undefined;
  const [rolled, raw] = await Promise.all([
    kinds.includes("traces") ? q.selectTraceRollups(db, s.organizationId, plan.rolled, { bucket, byFn, fn }) : q.selectRollups(db, s.organizationId, plan.rolled, { kinds, bucket, byFn, fn }),
    q.selectAggregates(db, s.organizationId, plan.raw, fn, kinds),
  ]);
  const step = s.stepSeconds * 1000;
  const rawRows = raw
    .filter((r) => kinds.includes(r.kind))
    .map((r) => ({ ...r, at: byBucket ? new Date(origin.getTime() + Math.floor((new Date(r.at!).getTime() - origin.getTime()) / step) * step) : null, fn: byFn ? r.fn : null }));
  return [...rolled.map((r) => ({ ...r, at: r.at === null ? null : new Date(r.at) })), ...rawRows];
}

export async function readBuckets(db: DbClient, s: TDashboardScope, plan: TRollupPlan): Promise<TBucketRow[]> {
  const by = new Map<number, TAcc>();
  for (const r of await rowsOf(db, s, plan, ["traces"], true, false)) {
    const t = r.at!.getTime();
    if (!by.has(t)) by.set(t, acc());
    addTo(by.get(t)!, r);
  }
  return [...by.entries()]
    .filter(([, a]) => a.traces > 0)
    .sort(([a], [b]) => a - b)
    .map(([t, a]) => ({ bucket: new Date(t), traces: a.traces, errors: a.errors, costUsd: a.costUsd, ...percentilesOf(a) }));
}

export async function readByFunction(db: DbClient, s: TDashboardScope, plan: TRollupPlan): Promise<TFunctionRow[]> {
  const by = new Map<string, TAcc>();
  const total = acc();
  for (const r of await rowsOf(db, s, plan, ["traces"], false, true)) {
    if (!by.has(r.fn!)) by.set(r.fn!, acc());
    addTo(by.get(r.fn!)!, r);
    addTo(total, r);
  }
  const row = (fn: string | null, a: TAcc, isTotal: boolean): TFunctionRow => ({
    traceFunctionKey: fn, total: isTotal, traces: a.traces, errors: a.errors, costUsd: a.costUsd, ...percentilesOf(a),
  });
  return [...[...by.entries()].filter(([, a]) => a.traces > 0).map(([fn, a]) => row(decodeFn(fn), a, false)), row(null, total, true)];
}

export async function readUsage(db: DbClient, s: TDashboardScope, plan: TRollupPlan): Promise<TUsageRow[]> {
  const by = new Map<string, TUsageRow>();
  for (const r of await rowsOf(db, s, plan, ["model", "llm"], false, true)) {
    const key = r.kind === "model" ? r.key : decodeFn(r.fn);
    const id = `${r.kind}\u0000${key ?? ""}\u0000${key === null}`;
    const u = by.get(id) ?? { by: r.kind === "model" ? "model" : "function", key, traces: 0, spans: 0, unpricedSpans: 0, inputTokens: null, outputTokens: null, totalTokens: null, costUsd: null };
    u.traces += r.traces;
    u.spans += r.spans;
    u.unpricedSpans += r.unpricedSpans;
    u.inputTokens = addCost(u.inputTokens, r.inputTokens);
    u.outputTokens = addCost(u.outputTokens, r.outputTokens);
    u.totalTokens = addCost(u.totalTokens, r.totalTokens);
    u.costUsd = addCost(u.costUsd, r.costUsd);
    by.set(id, u);
  }
  return [...by.values()];
}

export async function readGraderBuckets(db: DbClient, s: TDashboardScope, plan: TRollupPlan): Promise<TGraderBucketRow[]> {
  const by = new Map<string, TGraderBucketRow>();
  for (const r of await rowsOf(db, s, plan, ["grader"], true, false)) {
    const id = `${r.key}@${r.at!.getTime()}`;
    const g = by.get(id) ?? { graderId: r.key, name: "", bucket: r.at!, pass: 0, fail: 0 };
    g.pass += r.pass;
    g.fail += r.fail;
    by.set(id, g);
  }
  const rows = [...by.values()].filter((g) => g.pass + g.fail > 0);
  const names = await q.selectGraderNames(db, s.organizationId, [...new Set(rows.map((r) => r.graderId))]);
  // As the statement: a grader's name, else its id (the chart's fallback) when the grader is gone.
  return rows.map((r) => ({ ...r, name: names.get(r.graderId) ?? (null as unknown as string) })).sort((a, b) => (a.name ?? "").localeCompare(b.name ?? "") || a.bucket.getTime() - b.bucket.getTime());
}

export async function readVerdicts(db: DbClient, s: TDashboardScope, plan: TRollupPlan): Promise<TVerdictRow[]> {
  const by = new Map<string, { pass: number; fail: number }>();
  for (const r of await rowsOf(db, s, plan, ["verdict"], false, false)) {
    const v = by.get(r.key) ?? { pass: 0, fail: 0 };
    v.pass += r.pass;
    v.fail += r.fail;
    by.set(r.key, v);
  }
  return [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([source, v]) => [
      ...(v.pass > 0 ? [{ source, label: true, traces: v.pass }] : []),
      ...(v.fail > 0 ? [{ source, label: false, traces: v.fail }] : []),
    ]);
}

