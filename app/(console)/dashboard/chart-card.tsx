"use client";
// A dashboard chart's card: its title, the chart, and the table view (a disclosure) with the same figures, each a
// link to the traces behind it (docs/dashboard.md, "Charts").
import { useMemo } from "react";
import { Card } from "@/components/ui/card.tsx";
import { Link } from "@/components/ui/link.tsx";
import { formatNumber } from "@/components/ui/format.ts";
import { Chart } from "./chart.tsx";
import { tracesHref, type TTraceLink } from "./trace-link.ts";

export function ChartCard({ title, children, table }: { title: string; children: React.ReactNode; table: React.ReactNode }) {
  return (
    <Card className="space-y-2 px-4 py-3">
      <h2 className="text-sm font-semibold text-zinc-800">{title}</h2>
      {children}
      <details className="text-sm">
        <summary className="cursor-pointer text-xs text-zinc-500">Table view</summary>
        {table}
      </details>
    </Card>
  );
}

export type TCell = string | number | [number, TTraceLink];

export function Table({ head, rows }: { head: string[]; rows: TCell[][] }) {
  if (rows.length === 0) return <p className="py-2 text-xs text-zinc-500">Nothing in this range.</p>;
  return (
    <table className="mt-2 w-full text-left text-xs">
      <thead className="text-zinc-500"><tr>{head.map((h, i) => <th key={i} scope="col" className="py-1 pr-3 font-medium">{h}</th>)}</tr></thead>
      <tbody className="divide-y divide-zinc-100">
        {rows.map((row, i) => (
          <tr key={i}>
            {row.map((cell, j) => (
              <td key={j} className="py-1 pr-3 tabular-nums">
                {Array.isArray(cell) ? <Link href={tracesHref(cell[1])} className="text-accent-700 hover:underline dark:text-accent-300">{formatNumber(cell[0])}</Link> : cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface TCategoryRow {
  name: string;
  value: number;
  link: TTraceLink;
  cells: TCell[];
}

export function CategoryChart({ title, rows, head, format, color, onPick }: { title: string; rows: TCategoryRow[]; head: string[]; format: (v: number) => string; color: number; onPick: (link: TTraceLink) => void }) {
  const x = useMemo(() => rows.map((_, i) => i), [rows]);
  const series = useMemo(() => [{ label: title, values: rows.map((r) => r.value), color }], [rows, title, color]);
  const categories = useMemo(() => rows.map((r) => r.name), [rows]);
  return (
    <ChartCard title={title} table={<Table head={head} rows={rows.map((r) => [r.name, ...r.cells])} />}>
      {rows.length === 0 ? <p className="py-8 text-center text-xs text-zinc-500">Nothing in this range.</p> : (
        <Chart label={title} kind="bars" x={x} series={series} categories={categories} formatY={format} onPick={(i) => onPick(rows[i]!.link)} />
      )}
    </ChartCard>
  );
}
