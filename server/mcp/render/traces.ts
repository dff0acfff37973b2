// Text forms of trace reads. get_traces is parsed by the plugins (docs/mcp.md, "Results"): each span's
// id appears as `[ID: <uuid>]`, each trace names its traceFunctionKey, label and annotation, long fields are
// cut with a pointer to get_span_field, and several traces are joined by a `---` line.
import type { TTraceLabels } from "../../labels/labels.schemas.ts";
import type { TSpanContent } from "../../spans/trace-spans.service.ts";
import type { TTraceSearchHit } from "../../traces/search.service.ts";
import type { TTrace } from "../../traces/traces.schemas.ts";
import { buildForest, type TreeNode } from "../../shared/tree.ts";
import type { ToolResult } from "../tool.ts";
import { asText, cut, tokensText, usd, verdictWord } from "./text.ts";

export const TRACE_SEPARATOR = "\n\n---\n\n";

export function outputPreview(output: unknown, max: number): string | null {
  const text = asText(output);
  return text === "" ? null : text.length > max ? `${text.slice(0, max)}…` : text;
}

function labelLine(label: TTraceLabels | undefined): string {
  if (!label || label.labelStatus === "unlabeled") return "Label: unlabeled";
  const validated = label.labelStatus === "labeled" ? (label.approved ? ", validated" : ", not validated") : "";
  return `Label: ${verdictWord(label.label, label.labelStatus)} (${label.labelSource ?? "unknown"}${validated})`;
}

function environmentOf(trace: TTrace): string | null {
  const env = trace.metadata.environment ?? trace.metadata.env;
  return typeof env === "string" ? env : null;
}

export function renderSearchHits(hits: TTraceSearchHit[], labels: TTraceLabels[], o: { drillDown: boolean; traceFunctionKey: string }): string {
  if (hits.length === 0) return `No traces of ${o.traceFunctionKey} match.`;
  const byId = new Map(labels.map((l) => [l.traceId, l]));
  const lines = [`Found ${hits.length} trace${hits.length === 1 ? "" : "s"} of ${o.traceFunctionKey} (newest first):`];
  for (const h of hits) {
    const t = h.trace;
    const label = byId.get(t.id);
    lines.push("");
    lines.push(`[ID: ${t.id}] ${t.name ?? t.traceFunctionKey ?? ""}`);
    const facts = [`status ${t.status}`, `started ${t.startedAt ?? "unknown"}`, `created ${h.createdAt}`];
    if (t.durationMs !== null) facts.push(`${t.durationMs} ms`);
    const env = environmentOf(t);
    if (env) facts.push(`environment ${env}`);
    if (t.testRunId) facts.push(`replay of ${t.originalTraceId ?? "unknown"} in experiment ${t.testRunId}`);
    if (!t.faithful) facts.push(`not faithful (${t.captureIssues.join(", ")}): replay by limit skips it`);
    lines.push(`  ${facts.join(" · ")}`);
    lines.push(`  Tokens: ${tokensText(t.tokens)} · Model: ${t.model ?? "n/a"} · Spans: ${t.spanCount}`);
    if (t.costUsd !== null) lines.push(`  Cost: ${usd(t.costUsd)}`);
    lines.push(`  ${labelLine(label)}`);
    if (label?.annotation) lines.push(`  Annotation: ${cut(label.annotation, o.drillDown ? 2000 : 300, "read it with get_trace_labels")}`);
    const preview = outputPreview(h.output, o.drillDown ? 1500 : 200);
    if (preview) lines.push(`  Output: ${preview}`);
    if (o.drillDown && h.rootError) lines.push(`  Error: ${h.rootError}`);
  }
  lines.push("", "Read traces with get_traces (summary first, then scope: full).");
  return lines.join("\n");
}

const LIMITS = {
  summary: { traceField: 2000, spanTotal: 1500, spanField: 1500 },
  full: { traceField: 10_000, spanTotal: Number.POSITIVE_INFINITY, spanField: 10_000 },
};
const SPAN_FIELDS = ["input", "output", "reasoning", "content", "contexts", "errors"] as const;

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

function renderSpan(span: TSpanContent, depth: number, traceId: string, scope: "summary" | "full", out: string[]) {
  const pad = "  ".repeat(depth);
  const limits = LIMITS[scope];
  const facts = [span.type];
  if (span.metrics.durationMs !== null) facts.push(`${span.metrics.durationMs} ms`);
  if (span.metrics.tokens) facts.push(`tokens ${tokensText(span.metrics.tokens)}`);
  if (span.metrics.model) facts.push(`model ${span.metrics.model}`);
  if (span.metrics.costUsd !== null) facts.push(`cost ${usd(span.metrics.costUsd)}`);
  const ttft = (span.contexts as Array<Record<string, unknown>>).find((c) => c && typeof c === "object" && "timeToFirstTokenMs" in c)?.timeToFirstTokenMs;
  if (typeof ttft === "number") facts.push(`time to first token ${ttft} ms`);
  if (span.metadata.contentOffBySimulationPlan) facts.push("content withheld by the sim plan");
  if (span.metadata.mocked) facts.push("mocked");
  out.push(`${pad}- [ID: ${span.id}] ${span.name} (${facts.join(", ")})`);
  const fields = SPAN_FIELDS.filter((f) => !isEmpty(span[f])).map((f) => ({ f, text: asText(span[f]) }));
  // Fair shares of the span's budget: short fields whole, the rest split what is left.
  const share = new Map<string, number>();
  let budget = limits.spanTotal;
  const bySize = [...fields].sort((a, b) => a.text.length - b.text.length);
  bySize.forEach((x, i) => {
    const max = Math.min(limits.spanField, x.text.length, Math.floor(budget / (bySize.length - i)));
    share.set(x.f, max);
    budget -= max;
  });
  for (const { f, text } of fields) {
    const hint = `get_span_field {traceId: "${traceId}", spanId: "${span.id}", field: "${f}"} reads it whole`;
    out.push(`${pad}    ${f}: ${cut(text, share.get(f)!, hint)}`);
  }
}

export interface TraceDetails {
  trace: TTrace;
  spans: TSpanContent[];
  label: TTraceLabels | undefined;
}

export function renderTraceDetails(d: TraceDetails, scope: "summary" | "full"): string {
  const t = d.trace;
  const limits = LIMITS[scope];
  const lines = [`Trace [ID: ${t.id}]`, `traceFunctionKey: ${t.traceFunctionKey ?? "none"}`];
  if (t.name) lines.push(`Name: ${t.name}`);
  const facts = [`Status: ${t.status}`, `Started: ${t.startedAt ?? "unknown"}`, `Duration: ${t.durationMs === null ? "n/a" : `${t.durationMs} ms`}`];
  const env = environmentOf(t);
  if (env) facts.push(`Environment: ${env}`);
  lines.push(facts.join(" · "));
  lines.push(`Tokens: ${tokensText(t.tokens)}`, `Model: ${t.model ?? "n/a"}`);
  if (t.costUsd !== null) lines.push(`Cost: ${usd(t.costUsd)}`);
  if (t.testRunId) lines.push(`Replay of [ID: ${t.originalTraceId ?? "unknown"}] in experiment ${t.testRunId}`);
  lines.push(labelLine(d.label));
  lines.push(`Annotation: ${d.label?.annotation ?? "none"}`);
  for (const a of d.label?.assertions ?? []) lines.push(`  Assertion [${a.assertionId}] ${verdictWord(a.label, a.labelStatus)}: ${a.assertion}`);
  const roots = d.spans.filter((s) => s.parentSpanId === null);
  const root = roots[0];
  if (root) {
    for (const field of ["input", "output"] as const) {
      if (isEmpty(root[field])) continue;
      lines.push(`${field === "input" ? "Input" : "Output"}: ${cut(asText(root[field]), limits.traceField, `get_span_field {traceId: "${t.id}", spanId: "${root.id}", field: "${field}"} reads it whole`)}`);
    }
  }
  if (Object.keys(t.metadata).length > 0) lines.push(`Metadata: ${cut(asText(t.metadata), limits.traceField, "long metadata cut")}`);
  const withErrors = d.spans.filter((s) => s.errors && s.errors.length > 0).length;
  const shown = d.spans.length < t.spanCount ? `the first ${d.spans.length} of ${t.spanCount} in start order, the others not read` : `${d.spans.length}`;
  lines.push(`Spans (${shown}${withErrors ? `, ${withErrors} with errors` : ""}):`);
  type Row = { id: string; parentSpanId: string | null; startedAt: Date | null; createdAt: Date; span: TSpanContent };
  const visit = (node: TreeNode<Row>, depth: number) => {
    renderSpan(node.row.span, depth, t.id, scope, lines);
    for (const child of node.children) visit(child, depth + 1);
  };
  // Spans arrive in start order; equal starts keep that order through the position as a tiebreak.
  const rows: Row[] = d.spans.map((span, i) => ({
    id: span.id,
    parentSpanId: span.parentSpanId,
    startedAt: span.startedAt ? new Date(span.startedAt) : null,
    createdAt: new Date(i),
    span,
  }));
  for (const node of buildForest(rows)) visit(node, 0);
  return lines.join("\n");
}

/** get_traces: each trace found, joined by TRACE_SEPARATOR, then the ids not found; an error when none was. */
export function renderTracesToRead(result: { traces: TraceDetails[]; notFoundTraceIds: string[] }, scope: "summary" | "full"): ToolResult {
  const sections = result.traces.map((d) => renderTraceDetails(d, scope));
  if (result.notFoundTraceIds.length > 0) sections.push(`Not found in this organization: ${result.notFoundTraceIds.join(", ")}`);
  const traces = result.traces.map(({ trace, spans, label }) => ({
    ...trace,
    label: label ?? null,
    spans: spans.map(({ input: _i, output: _o, reasoning: _r, content: _c, contexts: _x, ...s }) => s),
  }));
  return { text: sections.join(TRACE_SEPARATOR), data: { traces, notFoundTraceIds: result.notFoundTraceIds }, isError: traces.length === 0 };
}

/** search_traces: the hits as text, and as JSON with each one's verdict and output preview. */
export function renderSearch(result: { hits: TTraceSearchHit[]; labels: TTraceLabels[] }, o: { drillDown: boolean; traceFunctionKey: string }): ToolResult {
  const { hits, labels } = result;
  return {
    text: renderSearchHits(hits, labels, o),
    data: {
      traces: hits.map((h) => ({
        ...h.trace,
        createdAt: h.createdAt,
        label: labels.find((l) => l.traceId === h.trace.id) ?? null,
        outputPreview: outputPreview(h.output, o.drillDown ? 1500 : 200),
      })),
    },
  };
}
