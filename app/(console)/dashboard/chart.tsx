"use client";
// One uPlot chart (docs/dashboard.md, "Charts"): canvas, resized with its container, in the palette of the
// system's colour scheme. A click on the plot picks the nearest point or bar and opens the traces behind it.
import { useEffect, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface TSeries {
  label: string;
  values: Array<number | null>;
  /** Index into the palette. */
  color: number;
}

export interface TChartProps {
  /** Accessible name of the canvas (the table view below it carries the figures). */
  label: string;
  /** x values: epoch seconds (time) or 0..n-1 (categories). */
  x: number[];
  series: TSeries[];
  kind: "line" | "bars";
  /** x values are epoch seconds (a time axis). */
  time?: boolean;
  /** Category names for bars. */
  categories?: string[];
  /** Formats y-axis values. */
  formatY?: (v: number) => string;
  onPick: (index: number) => void;
  height?: number;
}

const LIGHT = { axis: "#52525b", grid: "#e4e4e7", palette: ["#4f46e5", "#dc2626", "#059669", "#d97706", "#0891b2", "#9333ea"] };
const DARK = { axis: "#a1a1aa", grid: "#27272a", palette: ["#818cf8", "#f87171", "#34d399", "#fbbf24", "#22d3ee", "#c084fc"] };

function useDark(): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    setDark(media.matches);
    const change = () => setDark(media.matches);
    media.addEventListener("change", change);
    return () => media.removeEventListener("change", change);
  }, []);
  return dark;
}

export function Chart({ label, x, series, kind, time = false, categories, formatY, onPick, height = 200 }: TChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const dark = useDark();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const colors = dark ? DARK : LIGHT;
    const bars = kind === "bars" ? uPlot.paths.bars!({ size: [0.6, 48], align: 0 }) : undefined;
    const axis = { stroke: colors.axis, grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid, width: 1 } };
    const options: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: series.length > 1 },
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      scales: { x: { time }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
      axes: [
        { ...axis, ...(categories ? { values: (_u: uPlot, splits: number[]) => splits.map((i) => (Number.isInteger(i) ? (categories[i] ?? "") : "")), space: 40 } : {}) },
        { ...axis, size: 64, values: (_u: uPlot, splits: number[]) => splits.map((v) => (formatY ? formatY(v) : String(v))) },
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: colors.palette[s.color % colors.palette.length],
          fill: kind === "bars" ? colors.palette[s.color % colors.palette.length] : undefined,
          width: kind === "bars" ? 0 : 2,
          paths: bars,
          // Sparse lines (a few intervals with traffic) would draw nothing between gaps: mark every point.
          points: { show: kind === "line", size: 5 },
          spanGaps: false,
        })),
      ],
    };
    const chart = new uPlot(options, [x, ...series.map((s) => s.values)] as uPlot.AlignedData, el);
    chart.root.querySelector("canvas")?.setAttribute("aria-label", label);
    chart.root.querySelector("canvas")?.setAttribute("role", "img");
    const click = () => {
      const index = chart.cursor.idx;
      if (index !== null && index !== undefined) pick.current(index);
    };
    chart.over.addEventListener("click", click);
    chart.over.style.cursor = "pointer";
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.over.removeEventListener("click", click);
      chart.destroy();
    };
  }, [x, series, kind, time, categories, formatY, height, label, dark]);

  return <div ref={box} className="w-full" data-testid={`chart-${label}`} />;
}
