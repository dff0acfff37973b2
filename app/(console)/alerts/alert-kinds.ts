// How the console names each kind of rule, and what its threshold means (docs/alerts.md, "Kinds").
import type { RouterOutputs } from "@/components/trpc/types.ts";

export type TAlertRule = RouterOutputs["alerts"]["list"][number];
export type TAlertKind = TAlertRule["kind"];

export const KINDS: Record<TAlertKind, { label: string; threshold: string; unit: (v: number) => string }> = {
  pass_rate: { label: "Pass rate below", threshold: "Pass rate (0–1)", unit: (v) => `${Math.round(v * 1000) / 10}%` },
  error_rate: { label: "Error rate above", threshold: "Error rate (0–1)", unit: (v) => `${Math.round(v * 1000) / 10}%` },
  p95_latency: { label: "p95 latency above", threshold: "Latency (ms)", unit: (v) => `${Math.round(v)} ms` },
  cost_per_day: { label: "Cost per day above", threshold: "USD per day", unit: (v) => `$${v.toFixed(2)}` },
  silence: { label: "No traces for", threshold: "(not used)", unit: (v) => `${v} traces` },
  mean_score: { label: "Mean score below", threshold: "Mean score", unit: (v) => `${Math.round(v * 100) / 100}` },
};

/** "Pass rate below 80% over 60 min" */
export function describeRule(r: Pick<TAlertRule, "kind" | "threshold" | "windowMinutes">): string {
  const k = KINDS[r.kind];
  return r.kind === "silence" ? `${k.label} ${r.windowMinutes} min` : `${k.label} ${k.unit(r.threshold)} over ${r.windowMinutes} min`;
}
