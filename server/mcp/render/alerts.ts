// The text agents read from list_alerts (docs/mcp.md, "Tools"): each rule, its condition and state, compact.
import type { TAlertRule } from "../../insight/alerts/alerts.schemas.ts";

const BELOW = new Set(["pass_rate", "mean_score"]);

function condition(r: TAlertRule): string {
  if (r.kind === "silence") return `no traces for ${r.windowMinutes} min`;
  return `${r.kind}${r.graderId ? ` of grader ${r.graderId}` : ""} ${BELOW.has(r.kind) ? "<" : ">"} ${r.threshold} over ${r.windowMinutes} min`;
}

export function renderAlertRules(rules: TAlertRule[]): string {
  if (rules.length === 0) return "No alert rules.";
  return [
    `${rules.length} alert rule(s):`,
    ...rules.map((r) =>
      `- ${r.name} [${r.id}]: ${condition(r)}${r.traceFunctionKey ? ` for ${r.traceFunctionKey}` : " for every trace function"}; ` +
      `${r.enabled ? (r.state === "firing" ? `FIRING (episode ${r.episode} since ${r.stateChangedAt})` : "ok") : "disabled"}` +
      `${r.lastValue === null ? "" : `; last value ${r.lastValue}`}${r.lastEvaluatedAt ? ` at ${r.lastEvaluatedAt}` : ""}`),
  ].join("\n");
}
