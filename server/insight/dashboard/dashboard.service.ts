// The dashboard's aggregates over a range, for all or one trace function (docs/dashboard.md). Each chart is
// one query; every figure comes with the trace-list filter that shows exactly the traces behind it.
import type { DbClient } from "../../db/client.ts";
import * as q from "./dashboard.queries.ts";
import { floorTo } from "./rollups/hours.ts";
import * as rollups from "./rollups/rollups.read.ts";
import type { TDashboardChart, TDashboardInput } from "./dashboard.schemas.ts";

/** Bucket widths, in seconds: the smallest that gives at most MAX_BUCKETS buckets is used. */
const STEPS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 86_400, 7 * 86_400];
export const MAX_BUCKETS = 120;

export function stepFor(from: Date, to: Date): number {
  const seconds = (to.getTime() - from.getTime()) / 1000;
  return STEPS.find((step) => seconds / step <= MAX_BUCKETS) ?? STEPS[STEPS.length - 1]!;
}

/** The trace list's filter (its URL parameters) for a set of traces. */
export interface TTraceLink {
  from?: string;
  to?: string;
  fn?: string;
  status?: "failed";
  model?: string;
  grader?: string;
  graderLabel?: "pass" | "fail" | "scored";
  graderCategory?: string;
  label?: "pass" | "fail";
  verdictSource?: string;
  kind?: "replay";
  run?: string;
}

const iso = (d: Date) => d.toISOString();

export function scopeOf(organizationId: string, input: TDashboardInput): q.TDashboardScope {
  const stepSeconds = stepFor(input.from, input.to);
  // Hour-wide and wider buckets start on whole hours (of UTC; days at midnight, weeks on Monday): each is a union
  // of hourly rollups, but the first, cut at `from` (docs/dashboard.md).
  const origin = stepSeconds >= 3600 ? new Date(floorTo(input.from.getTime(), stepSeconds * 1000)) : input.from;
  return { organizationId, from: input.from, to: input.to, traceFunctionKey: input.traceFunctionKey, stepSeconds, origin };
}

/** The buckets of the range: [start, end), the first one starting at `from`, the last one ending at `to`. */
function bucketBounds(s: q.TDashboardScope): Array<{ start: Date; end: Date }> {
  const out: Array<{ start: Date; end: Date }> = [];
  for (let t = (s.origin ?? s.from).getTime(); t < s.to.getTime(); t += s.stepSeconds * 1000) {
    out.push({ start: new Date(Math.max(t, s.from.getTime())), end: new Date(Math.min(t + s.stepSeconds * 1000, s.to.getTime())) });
  }
  return out;
}

/** A row's bucket as bucketBounds starts it (the first bucket's start is `from`, not the origin). */
const startOf = (s: q.TDashboardScope, bucket: Date) => Math.max(new Date(bucket).getTime(), s.from.getTime());

/**
 * The charts that read hourly rollups for the range's settled hours (docs/scaling.md, "Dashboard"). Measured
 * (bench/README.md, "Dashboard"): usage gains most (a 30-day range's LLM spans are no longer joined to their
 * traces); volume and functions read one row per hour and trace function, the latency histogram in it (migration
 * 0300), instead of every trace of the range, and their percentiles are then within ±2.5%; graders and verdicts
 * read their pass and fail counts per hour instead of probing every trace's labels (at 1,000,000 traces over 30
 * days: graders 940 ms exact, 23 ms from rollups; verdicts 344 and 16). Every chart's rollup read is tested equal
 * to its exact statement (rollups.int.test.ts).
 */
export const ROLLUP_CHARTS = new Set<TDashboardChart>(["usage", "volume", "functions", "graders", "verdicts"]);

/** Hour-wide buckets and whole-range charts can read rollups; narrower buckets cut hours, so they read raw. */
async function planFor(db: DbClient, s: q.TDashboardScope, chart: TDashboardChart, bucketed: boolean) {
  if (!ROLLUP_CHARTS.has(chart)) return null;
  return bucketed && s.stepSeconds < 3600 ? null : rollups.planRead(db, s);
}

const fnOf = (s: q.TDashboardScope) => (s.traceFunctionKey === undefined ? {} : { fn: s.traceFunctionKey });
const rangeLink = (s: q.TDashboardScope): TTraceLink => ({ from: iso(s.from), to: iso(s.to), ...fnOf(s) });

export async function volumeChart(db: DbClient, s: q.TDashboardScope) {
  const plan = await planFor(db, s, "volume", true);
  const rows = plan ? await rollups.readBuckets(db, s, plan) : await q.selectBuckets(db, s);
  const byStart = new Map(rows.map((r) => [startOf(s, r.bucket), r]));
  return bucketBounds(s).map(({ start, end }) => {
    const r = byStart.get(start.getTime());
    const link: TTraceLink = { from: iso(start), to: iso(end), ...fnOf(s) };
    return {
      start: iso(start),
      end: iso(end),
      traces: r?.traces ?? 0,
      errors: r?.errors ?? 0,
      p50: r?.p50 ?? null,
      p95: r?.p95 ?? null,
      p99: r?.p99 ?? null,
      costUsd: r?.costUsd ?? null,
      link,
      errorsLink: { ...link, status: "failed" as const },
    };
  });
}

export async function functionsChart(db: DbClient, s: q.TDashboardScope) {
  const plan = await planFor(db, s, "functions", false);
  const rows = plan ? await rollups.readByFunction(db, s, plan) : await q.selectByFunction(db, s);
  const total = rows.find((r) => r.total);
  return {
    totals: {
      traces: total?.traces ?? 0,
      errors: total?.errors ?? 0,
      p50: total?.p50 ?? null,
      p95: total?.p95 ?? null,
      p99: total?.p99 ?? null,
      costUsd: total?.costUsd ?? null,
      link: rangeLink(s),
    },
    functions: rows
      .filter((r) => !r.total && r.traceFunctionKey !== null)
      .sort((a, b) => b.traces - a.traces)
      .map((r) => ({ ...r, traceFunctionKey: r.traceFunctionKey!, link: { ...rangeLink(s), fn: r.traceFunctionKey! } })),
  };
}

export async function usageChart(db: DbClient, s: q.TDashboardScope) {
  const plan = await planFor(db, s, "usage", false);
  const rows = plan ? await rollups.readUsage(db, s, plan) : await q.selectUsage(db, s);
  const shape = (r: q.TUsageRow) => ({
    traces: r.traces,
    spans: r.spans,
    unpricedSpans: r.unpricedSpans,
    inputTokens: r.inputTokens ?? 0,
    outputTokens: r.outputTokens ?? 0,
    totalTokens: r.totalTokens ?? 0,
    costUsd: r.costUsd,
  });
  const byCost = (a: { costUsd: number | null; totalTokens: number }, b: { costUsd: number | null; totalTokens: number }) =>
    (b.costUsd ?? 0) - (a.costUsd ?? 0) || b.totalTokens - a.totalTokens;
  return {
    byModel: rows
      .filter((r) => r.by === "model" && r.key !== null)
      .map((r) => ({ model: r.key!, ...shape(r), link: { ...rangeLink(s), model: r.key! } }))
      .sort(byCost),
    byFunction: rows
      .filter((r) => r.by === "function" && r.key !== null)
      .map((r) => ({ traceFunctionKey: r.key!, ...shape(r), link: { ...rangeLink(s), fn: r.key! } }))
      .sort(byCost),
  };
}

export async function gradersChart(db: DbClient, s: q.TDashboardScope) {
  const plan = await planFor(db, s, "graders", true);
  const rows = plan ? await rollups.readGraderBuckets(db, s, plan) : await q.selectGraderBuckets(db, s);
  const graders = new Map<string, { graderId: string; name: string; pass: number; fail: number; points: Map<number, q.TGraderBucketRow> }>();
  for (const r of rows) {
    const g = graders.get(r.graderId) ?? { graderId: r.graderId, name: r.name ?? r.graderId, pass: 0, fail: 0, points: new Map() };
    g.pass += r.pass;
    g.fail += r.fail;
    g.points.set(startOf(s, r.bucket), r);
    graders.set(r.graderId, g);
  }
  const bounds = bucketBounds(s);
  return [...graders.values()].map((g) => ({
    graderId: g.graderId,
    name: g.name,
    pass: g.pass,
    fail: g.fail,
    passRate: g.pass + g.fail > 0 ? g.pass / (g.pass + g.fail) : null,
    link: { ...rangeLink(s), grader: g.graderId },
    points: bounds.map(({ start, end }) => {
      const p = g.points.get(start.getTime());
      const pass = p?.pass ?? 0;
      const fail = p?.fail ?? 0;
      return {
        start: iso(start),
        end: iso(end),
        pass,
        fail,
        passRate: pass + fail > 0 ? pass / (pass + fail) : null,
        link: { from: iso(start), to: iso(end), ...fnOf(s), grader: g.graderId } satisfies TTraceLink,
      };
    }),
  }));
}

/**
 * Each grader's score distribution over time (quartiles, mean, range) and category counts, for graders that
 * record a score or a category (docs/dashboard.md, "Scores"). Buckets without scores read null.
 */
export async function scoresChart(db: DbClient, s: q.TDashboardScope) {
  const rows = await q.selectGraderScoreBuckets(db, s);
  const graders = new Map<string, { graderId: string; name: string; scored: number; categories: Map<string, number>; points: Map<number, { score?: q.TGraderScoreBucketRow; categories: Record<string, number> }> }>();
  for (const r of rows) {
    const g = graders.get(r.graderId) ?? { graderId: r.graderId, name: r.name ?? r.graderId, scored: 0, categories: new Map(), points: new Map() };
    const at = startOf(s, r.bucket);
    const point = g.points.get(at) ?? { categories: {} };
    if (r.category === null) {
      point.score = r;
      g.scored += r.count;
    } else {
      point.categories[r.category] = r.count;
      g.categories.set(r.category, (g.categories.get(r.category) ?? 0) + r.count);
    }
    g.points.set(at, point);
    graders.set(r.graderId, g);
  }
  const bounds = bucketBounds(s);
  return [...graders.values()].map((g) => ({
    graderId: g.graderId,
    name: g.name,
    scored: g.scored,
    categories: Object.fromEntries(g.categories),
    link: { ...rangeLink(s), grader: g.graderId, graderLabel: "scored" } satisfies TTraceLink,
    categoryLinks: Object.fromEntries([...g.categories.keys()].map((c) => [c, { ...rangeLink(s), grader: g.graderId, graderCategory: c } satisfies TTraceLink])),
    points: bounds.map(({ start, end }) => {
      const p = g.points.get(start.getTime());
      const sc = p?.score;
      return {
        start: iso(start),
        end: iso(end),
        count: sc?.count ?? 0,
        mean: sc?.mean ?? null,
        min: sc?.min ?? null,
        p25: sc?.p25 ?? null,
        p50: sc?.p50 ?? null,
        p75: sc?.p75 ?? null,
        max: sc?.max ?? null,
        categories: p?.categories ?? {},
        // Exactly the traces behind `count`: the ones this grader scored in the interval (docs/dashboard.md, "Scores").
        link: { from: iso(start), to: iso(end), ...fnOf(s), grader: g.graderId, graderLabel: "scored" } satisfies TTraceLink,
        categoryLinks: Object.fromEntries(Object.keys(p?.categories ?? {}).map((c) => [c, { from: iso(start), to: iso(end), ...fnOf(s), grader: g.graderId, graderCategory: c } satisfies TTraceLink])),
      };
    }),
  }));
}

export async function verdictsChart(db: DbClient, s: q.TDashboardScope) {
  const plan = await planFor(db, s, "verdicts", false);
  const rows = plan ? await rollups.readVerdicts(db, s, plan) : await q.selectVerdicts(db, s);
  return rows.map((r) => {
    const label = r.label ? ("pass" as const) : ("fail" as const);
    return { source: r.source, label, traces: r.traces, link: { ...rangeLink(s), label, verdictSource: r.source } satisfies TTraceLink };
  });
}

export async function replaysChart(db: DbClient, s: q.TDashboardScope) {
  const rows = await q.selectReplays(db, s);
  return rows.map((r) => ({
    experimentId: r.experimentId,
    name: r.name,
    traceFunctionKey: r.traceFunctionKey,
    createdAt: iso(new Date(r.createdAt)),
    traces: r.traces,
    pass: r.pass,
    fail: r.fail,
    passRate: r.pass + r.fail > 0 ? r.pass / (r.pass + r.fail) : null,
    link: { kind: "replay", run: r.experimentId } satisfies TTraceLink,
  }));
}

const CHARTS = {
  volume: volumeChart,
  functions: functionsChart,
  usage: usageChart,
  graders: gradersChart,
  scores: scoresChart,
  verdicts: verdictsChart,
  replays: replaysChart,
} satisfies Record<TDashboardChart, (db: DbClient, s: q.TDashboardScope) => Promise<unknown>>;

/** One chart alone (the bench times each). */
export function getDashboardChart(db: DbClient, organizationId: string, input: TDashboardInput, chart: TDashboardChart) {
  return CHARTS[chart](db, scopeOf(organizationId, input));
}

/** Every chart of the dashboard, read at once. */
export async function getDashboard(db: DbClient, organizationId: string, input: TDashboardInput) {
  const s = scopeOf(organizationId, input);
  const [volume, functions, usage, graders, scores, verdicts, replays] = await Promise.all([
    volumeChart(db, s),
    functionsChart(db, s),
    usageChart(db, s),
    gradersChart(db, s),
    scoresChart(db, s),
    verdictsChart(db, s),
    replaysChart(db, s),
  ]);
  return { from: iso(s.from), to: iso(s.to), traceFunctionKey: s.traceFunctionKey ?? null, stepSeconds: s.stepSeconds, volume, functions, usage, graders, scores, verdicts, replays };
}
export type TDashboard = Awaited<ReturnType<typeof getDashboard>>;
