// The answer of save_agent_labels and save_human_labels. The plugins parse it (docs/mcp.md, "Results"):
// a header, then for every label, in order, `- <the id the caller gave>: <action>; effective PASS|FAIL|skipped|unlabeled`,
// where effective is the target's current verdict after the write.
import type { Database } from "../../db/client.ts";
import { findTraceLabels } from "../../labels/trace-labels-read.service.ts";
import type { ToolResult } from "../tool.ts";
import { verdictWord } from "./text.ts";

interface Written {
  key: string;
  traceId: string | null;
  action: string;
  unresolved?: boolean;
}

export async function renderLabelWrites(
  db: Database,
  organizationId: string,
  entries: Array<{ assertionId?: string | null }>,
  written: Written[],
  experimentId: string | undefined,
): Promise<ToolResult> {
  const traceIds = [...new Set(written.flatMap((w) => (w.traceId ? [w.traceId] : [])))];
  const current = traceIds.length ? (await findTraceLabels(db, organizationId, traceIds)).labels : [];
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
