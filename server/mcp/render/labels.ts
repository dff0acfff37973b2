// Text forms of verdict reads (get_trace_labels, get_grader_labels).
import type { TGraderLabel, TTraceLabels } from "../../labels/labels.schemas.ts";
import { verdictWord } from "./text.ts";

export function renderTraceLabels(labels: TTraceLabels[], unresolved: string[]): string {
  const lines: string[] = [];
  for (const l of labels) {
    const approved = l.labelStatus === "labeled" ? (l.approved ? ", validated" : ", not validated") : "";
    lines.push(`Trace ${l.traceId}: ${verdictWord(l.label, l.labelStatus)}${l.labelSource ? ` (${l.labelSource}${approved})` : ""}`);
    if (l.annotation) lines.push(`  Annotation: ${l.annotation}`);
    if (l.confidence) lines.push(`  Confidence: ${l.confidence}`);
    for (const e of l.evidence ?? []) lines.push(`  Evidence [span ${e.spanId}]: ${e.text}`);
    if (l.assertions.length > 0) lines.push(`  Assertions: ${l.passed} passed, ${l.failed} failed`);
    for (const a of l.assertions) {
      lines.push(`    [${a.assertionId}] ${verdictWord(a.label, a.labelStatus)}${a.labelSource ? ` (${a.labelSource}${a.labelStatus === "labeled" ? (a.approved ? ", validated" : ", not validated") : ""})` : ""}: ${a.assertion}`);
      if (a.annotation) lines.push(`      Annotation: ${a.annotation}`);
      if (a.confidence) lines.push(`      Confidence: ${a.confidence}`);
      for (const e of a.evidence ?? []) lines.push(`      Evidence [span ${e.spanId}]: ${e.text}`);
    }
  }
  if (unresolved.length > 0) lines.push(`Not found in this organization: ${unresolved.join(", ")}`);
  return lines.length > 0 ? lines.join("\n") : "No labels.";
}

export function renderGraderLabels(labels: TGraderLabel[]): string {
  if (labels.length === 0) return "No grader labels.";
  const lines = [`Grader labels (${labels.length}):`];
  for (const l of labels) {
    const outcome = l.label === null ? (l.failureDiagnostic !== null || (l.score === null && l.category === null) ? "errored" : "no pass/fail") : verdictWord(l.label);
    const scored = l.score !== null ? `, score ${l.score}` : l.category !== null ? `, category "${l.category}"` : "";
    lines.push(`- trace ${l.traceId} · grader ${l.graderName ?? l.graderId} (${l.graderId}, ${l.graderStatus}, version ${l.graderVersion}): ${outcome}${scored} [${l.source}${l.evaluatedAt ? `, ${l.evaluatedAt}` : ""}]`);
    if (l.labelReason) lines.push(`  Reason: ${l.labelReason}`);
    if (l.failureDiagnostic) lines.push(`  Diagnostic: ${l.failureDiagnostic}`);
    if (l.labelConfidence) lines.push(`  Confidence: ${l.labelConfidence}`);
  }
  return lines.join("\n");
}

export function renderGraderLabelWrites(labels: { traceId: string; graderId: string; label: boolean | null; score: number | null; category: string | null }[]): string {
  const lines = [`Recorded ${labels.length} grader label(s):`];
  for (const l of labels) {
    const scored = l.score !== null ? `score ${l.score}` : l.category !== null ? `category "${l.category}"` : null;
    lines.push(`- trace ${l.traceId} · grader ${l.graderId}: ${[scored, l.label === null ? "no pass/fail" : verdictWord(l.label)].filter(Boolean).join(", ")}`);
  }
  return lines.join("\n");
}
