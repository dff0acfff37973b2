// Text form of a trace function's sim plan: one line per node with its type, use and capture setting.
import type { decideTraceFunctionPlan, TSimPlanOverviewNode } from "../../sim-plan/sim-plan.service.ts";
import type { ToolResult } from "../tool.ts";

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

/** save_sim_plan: what applied, what cascaded, each refusal with its reason, then the plan as it now stands. */
export function renderPlanDecisions(traceFunctionKey: string, result: Awaited<ReturnType<typeof decideTraceFunctionPlan>>, traceLimit: number): ToolResult {
  const { applied, refused, cascaded, nodes } = result;
  const lines = [`Applied ${applied.length} decision(s)${cascaded.length ? `, and turned off ${cascaded.length} node(s) beneath: ${cascaded.map((c) => c.name).join(", ")}` : ""}.`];
  for (const r of refused) lines.push(`Refused ${r.name}: ${r.reason}`);
  lines.push("", renderSimPlan(traceFunctionKey, nodes, traceLimit));
  return { text: lines.join("\n"), data: { applied, refused, cascaded, nodes }, isError: applied.length === 0 && refused.length > 0 };
}
