// The answer of save_agent_labels and save_human_labels. The plugins parse it (docs/mcp.md, "Results"):
// a header, then for every label, in order, `- <the id the caller gave>: <action>; effective PASS|FAIL|skipped|unlabeled`,
// where effective is the target's current verdict after the write (the service reads it back with the write).
import type { TTraceLabels } from "../../labels/labels.schemas.ts";
import type { TLabelWritesReport } from "../../labels/trace-labels.service.ts";
import { toolError, type ToolResult } from "../tool.ts";
import { verdictWord } from "./text.ts";

interface Written {
  key: string;
  traceId: string | null;
  action: string;
  unresolved?: boolean;
}

/** save_agent_labels: direct trace ids outside the organization fail the whole call (nothing was written). */
export function renderAgentLabelWrites(entries: Array<{ assertionId?: string | null }>, report: TLabelWritesReport, experimentId: string | undefined): ToolResult {
  if ("unknownTraceIds" in report) {
    const ids = report.unknownTraceIds.join(", ");
    return toolError(report.allUnknown
      ? `None of the provided trace IDs belong to this organization: ${ids}. Nothing was written.`
      : `Skipped (not in this organization): ${ids}. Nothing was written: a batch is all or nothing, so call again without them.`);
  }
  return renderLabelWrites(entries, report.labels, report.current, experimentId);
}

/** save_human_labels: each line names the trace id as the caller gave it. */
export function renderHumanLabelWrites(
  entries: Array<{ traceId: string; assertionId?: string | null }>,
  report: { labels: Array<{ traceId: string; action: string }>; current: TTraceLabels[] },
): ToolResult {
  const written = report.labels.map((l, i) => ({ key: entries[i].traceId, traceId: l.traceId, action: l.action }));
  return renderLabelWrites(entries, written, report.current, undefined);
}

function renderLabelWrites(
  entries: Array<{ assertionId?: string | null }>,
  written: Written[],
  current: TTraceLabels[],
  experimentId: string | undefined,
): ToolResult {
  const counts = { set: 0, skipped: 0, archived: 0, "no-active-label": 0, unresolved: 0 };
  const lines: string[] = [];
  const results = written.map((w, i) => {
    const assertionId = entries[i]?.assertionId ?? null;
    if (w.unresolved || !w.traceId) {
      counts.unresolved += 1;
      lines.push(`- ${w.key}: No replay trace found for ${w.key} in experiment ${experimentId ?? "(none)"}; effective unlabeled`);
      return { ...w, effective: "unlabeled" };
    }
    counts[w.action as keyof typeof counts] += 1;
    const trace = current.find((l) => l.traceId === w.traceId);
    const target = assertionId ? trace?.assertions.find((a) => a.assertionId === assertionId) : trace;
    const effective = verdictWord(target?.label ?? null, target?.labelStatus);
    const via = w.traceId !== w.key ? ` (trace ${w.traceId})` : "";
    lines.push(`- ${w.key}: ${w.action}${via}${assertionId ? ` [assertion ${assertionId}]` : ""}; effective ${effective === "errored" ? "unlabeled" : effective}`);
    return { ...w, assertionId, effective };
  });
  const header =
    `Update complete: set ${counts.set} verdict(s), skipped ${counts.skipped}, archived ${counts.archived}` +
    `${counts["no-active-label"] ? `, ${counts["no-active-label"]} had no active label` : ""}` +
    `${counts.unresolved ? `, ${counts.unresolved} not resolved (nothing written for them)` : ""}.`;
  return { text: [header, ...lines].join("\n"), data: { labels: results } };
}
