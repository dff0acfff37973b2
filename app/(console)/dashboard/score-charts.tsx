"use client";
// The dashboard's score charts (docs/dashboard.md, "Scores"): for each grader that records a score, the mean,
// median and quartiles of its scores per interval; for each that records a category, its category counts. A point,
// a bar or a table cell opens the trace list with exactly the traces behind its count.
import { useMemo } from "react";
import { formatNumber } from "@/components/ui/format.ts";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { Chart } from "./chart.tsx";
import { CategoryChart, ChartCard, Table } from "./chart-card.tsx";
import type { TTraceLink } from "./trace-link.ts";

type TScores = RouterOutputs["insight"]["dashboard"]["scores"];
type TGraderScores = TScores[number];

const num = (v: number | null) => (v === null ? "—" : formatNumber(Math.round(v * 100) / 100));

/** The mean of every score of the range: each interval's mean weighted by its count. */
function overallMean(g: TGraderScores): number | null {
  const n = g.points.reduce((sum, p) => sum + p.count, 0);
  return n === 0 ? null : g.points.reduce((sum, p) => sum + (p.mean ?? 0) * p.count, 0) / n;
}

export function ScoreCharts({ scores, x, time, open }: { scores: TScores; x: number[]; time: (iso: string) => string; open: (link: TTraceLink) => void }) {
  return (
    <>
      {scores.filter((g) => g.scored > 0).map((g) => <ScoreChart key={g.graderId} g={g} x={x} time={time} open={open} />)}
      {scores.filter((g) => Object.keys(g.categories).length > 0).map((g) => (
        <CategoryChart key={`${g.graderId}-categories`} title={`Categories of "${g.name}"`} head={["Category", "Traces"]} color={5} onPick={open} format={(v) => formatNumber(v)}
          rows={Object.entries(g.categories).sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, value: n, link: g.categoryLinks[name]!, cells: [[n, g.categoryLinks[name]!]] }))} />
      ))}
    </>
  );
}

function ScoreChart({ g, x, time, open }: { g: TGraderScores; x: number[]; time: (iso: string) => string; open: (link: TTraceLink) => void }) {
  const series = useMemo(() => [
    { label: "Mean", values: g.points.map((p) => p.mean), color: 0 },
    { label: "Median", values: g.points.map((p) => p.p50), color: 2 },
    { label: "25th percentile", values: g.points.map((p) => p.p25), color: 4 },
    { label: "75th percentile", values: g.points.map((p) => p.p75), color: 3 },
  ], [g]);
  const mean = overallMean(g);
  return (
    <ChartCard title={`Grader "${g.name}": mean score ${num(mean)} of ${formatNumber(g.scored)}`} table={
      <Table head={["Interval", "Scored", "Mean", "Min", "25th", "Median", "75th", "Max"]}
        rows={g.points.filter((p) => p.count > 0).map((p) => [time(p.start), [p.count, p.link], num(p.mean), num(p.min), num(p.p25), num(p.p50), num(p.p75), num(p.max)])} />
    }>
      <Chart label={`Scores of ${g.name}`} kind="line" time x={x} series={series} formatY={(v) => num(v)}
        onPick={(i) => { const p = nearestScored(g.points, i); if (p) open(p.link); }} />
    </ChartCard>
  );
}

/**
 * The point a click at interval `i` means: the nearest interval with scores, within a few (scores are sparse, and a
 * line of a few points leaves most intervals empty); none when the click is far from any.
 */
function nearestScored<T extends { count: number }>(points: T[], i: number, reach = 4): T | null {
  for (let d = 0; d <= reach; d++) {
    for (const j of d === 0 ? [i] : [i - d, i + d]) if (points[j] && points[j]!.count > 0) return points[j]!;
  }
  return null;
}
