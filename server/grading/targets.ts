// Target resolution (docs/graders.md, "Rule graders"): pure functions, shared by rule graders, the LLM
// judge and assertion checks. A target that cannot be found is reported as missing, never passed.
import type { TGradingSpan } from "./grading.schemas.ts";
import type { TTarget } from "../graders/grader-config.schemas.ts";

export interface ResolvedTarget {
  /** Human-readable, for reasons and diagnostics. */
  description: string;
  /** The span whose output is read: the root span for null and {kind:"output"}; null if the trace has no root. */
  span: TGradingSpan | null;
  /** Spans that noErrors / maxDurationMs / maxTotalTokens look at: the span's subtree, or every span for null. */
  subtree: TGradingSpan[];
}

export type TargetResolution = { ok: true; target: ResolvedTarget } | { ok: false; missing: string };
export type TargetValue = { ok: true; value: unknown } | { ok: false; missing: string };

const byStart = (a: TGradingSpan, b: TGradingSpan) =>
  (a.startedAt?.getTime() ?? Number.POSITIVE_INFINITY) - (b.startedAt?.getTime() ?? Number.POSITIVE_INFINITY) || a.id.localeCompare(b.id);

/** The root span: the span without a parent (the earliest started one if a trace has several). */
export function findRootSpan(spans: TGradingSpan[]): TGradingSpan | null {
  return spans.filter((s) => s.parentSpanId === null).sort(byStart)[0] ?? null;
}

/** The span and all its descendants. */
export function subtreeOf(spans: TGradingSpan[], root: TGradingSpan): TGradingSpan[] {
  const children = new Map<string, TGradingSpan[]>();
  for (const s of spans) if (s.parentSpanId) children.set(s.parentSpanId, [...(children.get(s.parentSpanId) ?? []), s]);
  const out: TGradingSpan[] = [];
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s.id)) continue;
    seen.add(s.id);
    out.push(s);
    stack.push(...(children.get(s.id) ?? []));
  }
  return out;
}

export function resolveTarget(spans: TGradingSpan[], target: TTarget | undefined): TargetResolution {
  if (!target) return { ok: true, target: { description: "the trace", span: findRootSpan(spans), subtree: spans } };
  if (target.kind === "output") {
    const root = findRootSpan(spans);
    if (!root) return { ok: false, missing: "the trace has no root span, so it has no final output" };
    return { ok: true, target: { description: `the output (root span "${root.name}")`, span: root, subtree: subtreeOf(spans, root) } };
  }
  const named = spans.filter((s) => s.name === target.name).sort(byStart);
  if (named.length === 0) return { ok: false, missing: `no span named "${target.name}" in the trace` };
  const occurrence = target.occurrence ?? "last";
  const index = occurrence === "first" ? 0 : occurrence === "last" ? named.length - 1 : occurrence;
  const span = named[index];
  if (!span) {
    return { ok: false, missing: `span "${target.name}" occurs ${named.length} time(s); occurrence ${occurrence} (0-based) does not exist` };
  }
  const label = occurrence === "last" && named.length === 1 ? `span "${target.name}"` : `span "${target.name}" (occurrence ${occurrence})`;
  return { ok: true, target: { description: label, span, subtree: subtreeOf(spans, span) } };
}

/** The value value-checks read: the target span's output (an absent output reads as null). */
export function readTargetValue(target: ResolvedTarget): TargetValue {
  const span = target.span;
  if (!span) return { ok: false, missing: "the trace has no root span to read an output from" };
  if (span.contentOff) {
    return { ok: false, missing: `the output of span "${span.name}" was not captured (content capture is off in the sim plan)` };
  }
  return { ok: true, value: span.output === undefined ? null : span.output };
}

/** The "JSON text" of a value (docs/graders.md, "Rule graders"): the string itself, else its compact JSON.stringify. */
export function jsonText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "null";
}
