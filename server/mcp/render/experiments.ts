// Text forms of experiments and groups (get_experiment, the group tools, grader re-runs).
import type { TExperimentGroup } from "../../replay/experiments/experiment-admin.service.ts";
import type { TExperimentSummary } from "../../replay/experiments/experiment-list.service.ts";
import type { TExperimentReport } from "../../replay/experiments/experiment-report.service.ts";
import type { TGraderRerun } from "../../grading/reruns/reruns.schemas.ts";
import { verdictWord } from "./text.ts";

export function experimentLine(e: TExperimentSummary): string {
  const git = [e.gitBranch ? `branch ${e.gitBranch}` : "", e.commitSha ? `commit ${e.commitSha.slice(0, 12)}` : ""].filter(Boolean).join(", ");
  return `[ID: ${e.id}] ${e.name ?? "(unnamed)"} · ${e.traceFunctionKey} · ${e.status} · ${e.counts.replays}/${e.counts.planned} replays · created ${e.createdAt}${git ? ` · ${git}` : ""}${e.experimentGroupId ? ` · group ${e.experimentGroupId}` : ""}`;
}

export function renderExperimentReport(r: TExperimentReport): string {
  const e = r.experiment;
  const pct = (x: number | null) => (x === null ? "n/a" : `${Math.round(x * 100)}%`);
  const lines = [`Experiment ${experimentLine(e)}`];
  if (e.notes) lines.push(`Notes: ${e.notes}`);
  lines.push(`Group: ${r.group ? `${r.group.name ?? "(unnamed)"} [${r.group.id}]` : "none"}`);
  const t = r.totals;
  lines.push(`Totals: ${t.replays} replay(s): ${t.completed} completed, ${t.failed} failed, ${t.pending} pending; verdicts ${t.passing} PASS, ${t.failing} FAIL, ${t.unlabeled} unlabeled`);
  const d = r.delta;
  lines.push(`Delta against originals: ${d.fixed} fixed, ${d.regressed} regressed, ${d["still-passing"]} still passing, ${d["still-failing"]} still failing, ${d.unpaired} unpaired`);
  lines.push(r.graders.length ? "Graders:" : "Graders: none graded");
  for (const g of r.graders) {
    const scores = g.scored > 0 ? `; mean score ${Number(g.meanScore!.toFixed(3))} over ${g.scored}` : "";
    const categories = Object.entries(g.categories).map(([c, n]) => `${c} ${n}`).join(", ");
    lines.push(`- ${g.graderName ?? g.graderId} [${g.graderId}]: pass rate ${pct(g.passRate)} (${g.passed} passed, ${g.failed} failed, ${g.errored} errored)${scores}${categories ? `; categories: ${categories}` : ""}`);
  }
  lines.push(r.assertions.length ? "Assertions:" : "Assertions: none scored");
  for (const a of r.assertions) {
    lines.push(`- [ID: ${a.assertionId}] ${a.assertion}: ${a.passed} passed, ${a.failed} failed, ${a.errored} errored, ${a.unlabeled} unlabeled`);
    for (const x of a.results) {
      lines.push(`    replay ${x.traceId} (original ${x.originalTraceId}${x.attempt !== null ? `, attempt ${x.attempt}` : ""}): ${verdictWord(x.label, x.labelStatus)}${x.labelSource ? ` (${x.labelSource})` : ""}${x.annotation ? ` — ${x.annotation}` : ""}`);
      for (const ev of x.evidence ?? []) lines.push(`      Evidence [span ${ev.spanId}]: ${ev.text}`);
    }
  }
  return lines.join("\n");
}

export function groupLine(g: TExperimentGroup): string {
  return `[ID: ${g.id}] ${g.name ?? "(unnamed)"} · ${g.experimentCount} experiment(s) · graders: ${g.graderIds.length ? g.graderIds.join(", ") : "none"}${g.notes ? `\n  Notes: ${g.notes}` : ""}`;
}

export function rerunText(run: TGraderRerun, joined: boolean, waitedS: number, again: string): string {
  const head = `${joined ? "Joined the running" : "Started a"} re-run ${run.id} of ${run.graderIds.length} grader(s): ${run.status}`;
  if (run.status === "completed") return `${head}. Graded ${run.result?.tracesGraded ?? 0} trace(s) with ${run.result?.gradersRun ?? 0} grader(s). Read the verdicts with get_grader_labels or get_experiment.`;
  if (run.status === "errored") return `${head}: ${run.error ?? "unknown error"}.`;
  const p = run.progress;
  return `${head}${p ? ` (${p.completedTraces}/${p.totalTraces} traces)` : ""} after ${waitedS} s. Call ${again} again with the same arguments to check on it.`;
}
