// The text agents read from get_insights (docs/mcp.md, "Tools"): the dashboard's aggregates, compact.
import type { TDashboard } from "../../insight/dashboard/dashboard.service.ts";
import { usd } from "./text.ts";

const ms = (v: number | null) => (v === null ? "n/a" : `${Math.round(v)} ms`);
const pct = (v: number | null) => (v === null ? "n/a" : `${Math.round(v * 1000) / 10}%`);
const cost = (v: number | null) => (v === null ? "n/a" : usd(v));
const latency = (r: { p50: number | null; p95: number | null; p99: number | null }) => `p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, p99 ${ms(r.p99)}`;

export function renderInsights(d: TDashboard): string {
  const t = d.functions.totals;
  const lines = [
    `Insights ${d.from} → ${d.to}${d.traceFunctionKey ? ` for ${d.traceFunctionKey}` : ""} (replay traces left out):`,
    `Traces ${t.traces}, errors ${t.errors} (${pct(t.traces > 0 ? t.errors / t.traces : null)}); latency ${latency(t)}; cost ${cost(t.costUsd)}`,
  ];
  const unpriced = d.usage.byModel.reduce((n, m) => n + m.unpricedSpans, 0);
  if (d.functions.functions.length > 0) {
    lines.push("By trace function:");
    for (const f of d.functions.functions.slice(0, 20)) {
      lines.push(`- ${f.traceFunctionKey}: ${f.traces} traces, ${f.errors} errors; ${latency(f)}; cost ${cost(f.costUsd)}`);
    }
  }
  if (d.usage.byModel.length > 0) {
    lines.push(`By model${unpriced > 0 ? ` (${unpriced} span(s) of a model no price matches are not in the cost)` : ""}:`);
    for (const m of d.usage.byModel.slice(0, 20)) {
      lines.push(`- ${m.model}: ${m.spans} calls in ${m.traces} traces; tokens in ${m.inputTokens}, out ${m.outputTokens}; cost ${cost(m.costUsd)}${m.unpricedSpans > 0 ? `; ${m.unpricedSpans} unpriced` : ""}`);
    }
  }
  if (d.graders.length > 0) {
    lines.push("Graders (pass rate over the range; per interval, oldest first):");
    for (const g of d.graders.slice(0, 20)) {
      const trend = g.points.filter((p) => p.passRate !== null).map((p) => pct(p.passRate)).slice(-12).join(" ");
      lines.push(`- ${g.name} [ID: ${g.graderId}]: ${pct(g.passRate)} of ${g.pass + g.fail}${trend ? ` · trend ${trend}` : ""}`);
    }
  }
  if (d.verdicts.length > 0) lines.push(`Verdicts: ${d.verdicts.map((v) => `${v.source} ${v.label.toUpperCase()} ${v.traces}`).join(", ")}`);
  if (d.replays.length > 0) {
    lines.push("Experiments created in the range (grader pass rate of their replays):");
    for (const r of d.replays.slice(0, 10)) lines.push(`- [ID: ${r.experimentId}] ${r.name ?? "(unnamed)"} · ${r.traceFunctionKey}: ${r.traces} replays, ${pct(r.passRate)}`);
  }
  return lines.join("\n");
}
