"use client";
// The console's home (docs/dashboard.md): one read of every chart for a range and an optional trace function,
// kept in the URL (`range`, `fn`). Each chart has a table view with the same figures as links.
import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { Card } from "@/components/ui/card.tsx";
import { Select } from "@/components/ui/field.tsx";
import { Link } from "@/components/ui/link.tsx";
import { formatDuration, formatNumber, formatUsd } from "@/components/ui/format.ts";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { Chart } from "./chart.tsx";
import { CategoryChart, ChartCard, Table } from "./chart-card.tsx";
import { ScoreCharts } from "./score-charts.tsx";
import { RANGES, rangeOf, tracesHref, type TRangeKey, type TTraceLink } from "./trace-link.ts";

type TDashboard = RouterOutputs["insight"]["dashboard"];

export function Dashboard() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const rangeKey = (RANGES.find(([k]) => k === params.get("range"))?.[0] ?? "24h") as TRangeKey;
  const fn = params.get("fn") || undefined;
  // The range is fixed when chosen: its figures and the trace lists they open name the same instants.
  const [range, setRange] = useState(() => ({ key: rangeKey, ...rangeOf(rangeKey) }));
  const current = range.key === rangeKey ? range : { key: rangeKey, ...rangeOf(rangeKey) };
  if (current !== range) setRange(current);
  const keys = useQuery(trpc.traces.functionKeys.queryOptions());
  const data = useQuery(trpc.insight.dashboard.queryOptions({ from: current.from, to: current.to, traceFunctionKey: fn }));
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    router.replace(`${pathname}?${next.toString()}`);
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Dashboard range">
        <label className="w-full text-xs font-medium text-zinc-600 sm:w-48">
          Time range
          <Select className="mt-1" value={rangeKey} onChange={(e) => set("range", e.target.value)}>
            {RANGES.map(([k, l]) => <option key={k} value={k}>{l}</option>)}
          </Select>
        </label>
        <label className="w-full text-xs font-medium text-zinc-600 sm:w-56">
          Trace function
          <Select className="mt-1" value={fn ?? ""} onChange={(e) => set("fn", e.target.value)}>
            <option value="">All</option>
            {(keys.data ?? []).map((k) => <option key={k} value={k}>{k}</option>)}
          </Select>
        </label>
        <Link href="/prices" className="ml-auto text-sm text-accent-700 hover:underline dark:text-accent-300">Model prices</Link>
      </div>
      {data.isPending ? <LoadingState label="Loading the dashboard" /> : data.isError ? <ErrorState error={data.error} onRetry={() => data.refetch()} /> : <Charts d={data.data} />}
    </div>
  );
}

const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 1000) / 10}%`);

function Charts({ d }: { d: TDashboard }) {
  const router = useRouter();
  const open = (link: TTraceLink) => router.push(tracesHref(link));
  const t = d.functions.totals;
  const unpriced = d.usage.byModel.reduce((n, m) => n + m.unpricedSpans, 0);
  const x = useMemo(() => d.volume.map((v) => Date.parse(v.start) / 1000), [d]);
  const volumeSeries = useMemo(() => [
    { label: "Traces", values: d.volume.map((v) => v.traces), color: 0 },
    { label: "Errors", values: d.volume.map((v) => v.errors), color: 1 },
  ], [d]);
  const latencySeries = useMemo(() => [
    { label: "p50", values: d.volume.map((v) => v.p50), color: 2 },
    { label: "p95", values: d.volume.map((v) => v.p95), color: 3 },
    { label: "p99", values: d.volume.map((v) => v.p99), color: 1 },
  ], [d]);
  const models = d.usage.byModel.slice(0, 12);
  const functions = d.usage.byFunction.slice(0, 12);
  const time = (iso: string) => new Date(iso).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Tile label="Traces" value={formatNumber(t.traces)} href={tracesHref(t.link)} />
        <Tile label="Errors" value={`${formatNumber(t.errors)} (${pct(t.traces ? t.errors / t.traces : null)})`} href={tracesHref({ ...t.link, status: "failed" })} />
        <Tile label="Latency p95" value={formatDuration(t.p95)} href={tracesHref(t.link)} />
        <Tile label="Cost" value={formatUsd(t.costUsd)} href={tracesHref(t.link)} note={unpriced > 0 ? `${formatNumber(unpriced)} unpriced span${unpriced === 1 ? "" : "s"} not included` : undefined} />
      </dl>
      <div className="grid gap-4 xl:grid-cols-2">
        <ChartCard title="Traces and errors" table={
          <Table head={["Interval", "Traces", "Errors"]} rows={d.volume.filter((v) => v.traces > 0).map((v) => [time(v.start), [v.traces, v.link], [v.errors, v.errorsLink]])} />
        }>
          <Chart label="Traces and errors" kind="bars" time x={x} series={volumeSeries} onPick={(i) => open(d.volume[i]!.link)} />
        </ChartCard>
        <ChartCard title="Latency" table={
          <Table head={["Interval", "p50", "p95", "p99", "Traces"]} rows={d.volume.filter((v) => v.traces > 0).map((v) => [time(v.start), formatDuration(v.p50), formatDuration(v.p95), formatDuration(v.p99), [v.traces, v.link]])} />
        }>
          <Chart label="Latency" kind="line" time x={x} series={latencySeries} formatY={(v) => formatDuration(v)} onPick={(i) => open(d.volume[i]!.link)} />
        </ChartCard>
        <CategoryChart title="Cost by model" rows={models.map((m) => ({ name: m.model, value: m.costUsd ?? 0, link: m.link, cells: [formatUsd(m.costUsd), formatNumber(m.totalTokens), m.unpricedSpans ? `${m.unpricedSpans} unpriced` : "", [m.traces, m.link]] }))}
          head={["Model", "Cost", "Tokens", "", "Traces"]} format={formatUsd} color={0} onPick={open} />
        <CategoryChart title="Tokens by model" rows={models.map((m) => ({ name: m.model, value: m.totalTokens, link: m.link, cells: [formatNumber(m.inputTokens), formatNumber(m.outputTokens), formatNumber(m.totalTokens), [m.traces, m.link]] }))}
          head={["Model", "Input", "Output", "Total", "Traces"]} format={(v) => formatNumber(v)} color={4} onPick={open} />
        <CategoryChart title="Cost by trace function" rows={functions.map((f) => ({ name: f.traceFunctionKey, value: f.costUsd ?? 0, link: d.functions.functions.find((g) => g.traceFunctionKey === f.traceFunctionKey)?.link ?? f.link, cells: [formatUsd(f.costUsd), formatNumber(f.totalTokens), [d.functions.functions.find((g) => g.traceFunctionKey === f.traceFunctionKey)?.traces ?? f.traces, d.functions.functions.find((g) => g.traceFunctionKey === f.traceFunctionKey)?.link ?? f.link]] }))}
          head={["Trace function", "Cost", "Tokens", "Traces"]} format={formatUsd} color={2} onPick={open} />
        <CategoryChart title="Traces by trace function" rows={d.functions.functions.slice(0, 12).map((f) => ({ name: f.traceFunctionKey, value: f.traces, link: f.link, cells: [[f.traces, f.link], f.errors, formatDuration(f.p95)] }))}
          head={["Trace function", "Traces", "Errors", "p95"]} format={(v) => formatNumber(v)} color={0} onPick={open} />
        {d.graders.map((g) => (
          <ChartCard key={g.graderId} title={`Grader "${g.name}": pass rate ${pct(g.passRate)}`} table={
            <Table head={["Interval", "Pass rate", "Graded"]} rows={g.points.filter((p) => p.pass + p.fail > 0).map((p) => [time(p.start), pct(p.passRate), [p.pass + p.fail, p.link]])} />
          }>
            <Chart label={`Pass rate of ${g.name}`} kind="line" time x={x} series={[{ label: "Pass rate", values: g.points.map((p) => (p.passRate === null ? null : p.passRate * 100)), color: 2 }]}
              formatY={(v) => `${Math.round(v)}%`} onPick={(i) => open(g.points[i]!.link)} />
          </ChartCard>
        ))}
        <ScoreCharts scores={d.scores} x={x} time={time} open={open} />
        <CategoryChart title="Verdicts" rows={d.verdicts.map((v) => ({ name: `${v.source} ${v.label}`, value: v.traces, link: v.link, cells: [[v.traces, v.link]] }))}
          head={["Verdict", "Traces"]} format={(v) => formatNumber(v)} color={5} onPick={open} />
        <CategoryChart title="Replay pass rates" rows={d.replays.map((r) => ({ name: r.name ?? r.experimentId.slice(0, 8), value: r.passRate === null ? 0 : r.passRate * 100, link: r.link, cells: [pct(r.passRate), [r.traces, r.link]] }))}
          head={["Experiment", "Pass rate", "Replays"]} format={(v) => `${Math.round(v)}%`} color={3} onPick={open} />
      </div>
    </div>
  );
}

function Tile({ label, value, href, note }: { label: string; value: string; href: string; note?: string }) {
  return (
    <Card className="px-4 py-3">
      <dt className="text-xs font-medium text-zinc-500">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums"><Link href={href} className="hover:underline">{value}</Link></dd>
      {note ? <dd className="mt-0.5 text-xs text-amber-700 dark:text-amber-300"><Link href="/prices" className="hover:underline">{note}</Link></dd> : null}
    </Card>
  );
}

