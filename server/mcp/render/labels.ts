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
    lines.push(`- trace ${l.traceId} · grader ${l.graderName ?? l.graderId} (${l.graderId}, ${l.graderStatus}, version ${l.graderVersion}): ${l.label === null ? "errored" : verdictWord(l.label)} [${l.source}${l.evaluatedAt ? `, ${l.evaluatedAt}` : ""}]`);
    if (l.labelReason) lines.push(`  Reason: ${l.labelReason}`);
    if (l.failureDiagnostic) lines.push(`  Diagnostic: ${l.failureDiagnostic}`);
    if (l.labelConfidence) lines.push(`  Confidence: ${l.labelConfidence}`);
  }
  return lines.join("\n");
}
