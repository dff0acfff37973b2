// Text form of a trace function's sim plan: one line per node with its type, use and capture setting.
import type { TSimPlanOverviewNode } from "../../sim-plan/sim-plan.service.ts";

export function renderSimPlan(traceFunctionKey: string, nodes: TSimPlanOverviewNode[], traceLimit: number): string {
  if (nodes.length === 0) return `No nodes recorded or decided for ${traceFunctionKey} yet.`;
  const lines = [`Sim plan of ${traceFunctionKey} (nodes seen in its ${traceLimit} most recent traces and replays, and decided nodes):`];
  for (const n of nodes) {
    const capture = n.captureContent ? "content captured" : "content OFF";
    const lock = n.locked ? ` · locked (${n.lockReasons.join(", ")})` : "";
    const parent = n.parent ? ` · under ${n.parent}` : "";
    lines.push(`- ${n.name} (${n.type ?? "unknown type"})${parent} · ${n.recentCalls} call(s) in ${n.recentTraces} trace(s) · ${capture}${lock}`);
  }
  lines.push("With content off, a node's spans are no longer sent, except roots, framework spans and spans with errors, which are sent without payloads.");
  return lines.join("\n");
}
