// Text forms of assertions (get_trace_assertions and the assertion writes). The plugins read
// `[ID: <uuid>] checks <target>: <assertion>` lines and the phrase "no approved assertions"
// (docs/mcp.md, "Results").
import type { TTraceAssertion } from "../../assertions/assertions.schemas.ts";
import type { TTraceAssertionsView } from "../../assertions/assertions.service.ts";
import type { TAssertionCategory } from "../../assertions/categories/categories.schemas.ts";

export function targetText(t: TTraceAssertion["targetOnEvaluatedTrace"]): string {
  if (!t) return "the whole trace";
  if (t.kind === "output") return "the output";
  const occurrence = t.occurrence === "first" ? "first" : t.occurrence === "last" ? "last" : `#${t.occurrence}`;
  return `span "${t.name}" (${occurrence} occurrence)`;
}

/** One assertion: the line the plugins parse, then its criteria, note, assignee and category. */
export function assertionLines(a: TTraceAssertion, indent = "", withState = false): string[] {
  const criteria = [a.passCriteria ? `pass: ${a.passCriteria}` : "", a.failCriteria ? `fail: ${a.failCriteria}` : ""].filter(Boolean).join("; ");
  const lines = [`${indent}[ID: ${a.id}] checks ${targetText(a.targetOnEvaluatedTrace)}: ${a.assertion}${criteria ? ` (${criteria})` : ""}${withState ? ` — ${a.approvalState}` : ""}`];
  if (a.humanNote) lines.push(`${indent}  Human note: ${a.humanNote}`);
  if (a.assigneeEmail) lines.push(`${indent}  Assignee: ${a.assigneeEmail}`);
  if (a.category) lines.push(`${indent}  Category: ${a.category.title} [${a.category.id}]`);
  for (const j of a.justification ?? []) lines.push(`${indent}  Evidence [span ${j.spanId}]: ${j.text}`);
  return lines;
}


export function renderTraceAssertions(views: TTraceAssertionsView[], unresolved: string[]): string {
  const out: string[] = [];
  for (const v of views) {
    const from = v.inheritedFrom ? ` (inherited from original ${v.inheritedFrom})` : "";
    if (v.assertions.length === 0) out.push(`Trace ${v.traceId}: no approved assertions`);
    else out.push(`Trace ${v.traceId}: ${v.assertions.length} approved assertion(s)${from}`);
    for (const a of v.assertions) out.push(...assertionLines(a, "  "));
    out.push(`  Assertion generation: ${v.pending > 0 ? `${v.pending} draft(s) awaiting review` : "none running"}`);
  }
  if (unresolved.length > 0) out.push(`Not found in this organization: ${unresolved.join(", ")}`);
  return out.join("\n");
}

export function renderSavedAssertions(header: string, assertions: TTraceAssertion[]): string {
  return [header, ...assertions.flatMap((a) => assertionLines(a, "  ", true))].join("\n");
}

export function renderCategory(c: TAssertionCategory): string {
  return `[ID: ${c.id}] ${c.title} · ${c.assertionCount} assertion(s)${c.description ? `\n  ${c.description}` : ""}`;
}
