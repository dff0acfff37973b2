// What the LLM judge is asked, and how its answer is read (docs/graders.md, "LLM judge graders").
// The prompt has a fixed budget (docs/graders.md, "LLM judge graders"): instructions ≤ 8,000 characters
// (enforced when the grader is saved), outline ≤ 6,000, targeted content ≤ 24,000.
import type { TGradingSpan, TVerdict } from "./grading.schemas.ts";
import { findRootSpan, jsonText, type ResolvedTarget } from "./targets.ts";

export const OUTLINE_BUDGET_CHARS = 6_000;
export const CONTENT_BUDGET_CHARS = 24_000;
const MAX_REASON_CHARS = 2_000;

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

const SYSTEM = [
  "You are an evaluator. You grade one recorded execution (a trace) of an LLM or agent application against the grader's instructions.",
  "Answer with one JSON object and nothing else:",
  '{"label": true if the trace passes the instructions or false if it fails, "reason": "one or two sentences", "confidence": "low" | "medium" | "high"}',
].join("\n");

export function truncate(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const marker = `…[truncated, ${text.length - budget} more characters]`;
  return text.slice(0, Math.max(0, budget - marker.length)) + marker;
}

/** One line per span, indented by depth, in start order: name, type, duration, error. */
export function traceOutline(spans: TGradingSpan[], budget = OUTLINE_BUDGET_CHARS): string {
  const children = new Map<string | null, TGradingSpan[]>();
  const ids = new Set(spans.map((s) => s.id));
  for (const s of spans) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  for (const list of children.values()) list.sort((a, b) => (a.startedAt?.getTime() ?? 0) - (b.startedAt?.getTime() ?? 0));
  const lines: string[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const s of children.get(parent) ?? []) {
      const ms = s.startedAt && s.endedAt ? ` ${s.endedAt.getTime() - s.startedAt.getTime()} ms` : "";
      const err = s.error ? ` ERROR: ${s.error.slice(0, 120)}` : "";
      lines.push(`${"  ".repeat(depth)}- ${s.name} [${s.type}]${ms}${err}`);
      walk(s.id, depth + 1);
    }
  };
  walk(null, 0);
  let out = "";
  for (let i = 0; i < lines.length; i++) {
    const rest = `… (${lines.length - i} more spans)`;
    if (out.length + lines[i].length + 1 + rest.length > budget) return `${out}${rest}`;
    out += `${lines[i]}\n`;
  }
  return out.trimEnd() || "(no spans)";
}

/** The target's content: input and output of its span (output only for {kind:"output"}). */
export function targetContent(target: ResolvedTarget, outputOnly: boolean, budget = CONTENT_BUDGET_CHARS): string {
  const span = target.span!;
  if (outputOnly) return `Output of ${target.description}:\n${truncate(jsonText(span.output ?? null), budget)}`;
  const half = Math.floor(budget / 2);
  return [
    `Input of ${target.description}:\n${truncate(jsonText(span.input ?? null), half)}`,
    `Output of ${target.description}:\n${truncate(jsonText(span.output ?? null), half)}`,
  ].join("\n\n");
}

export function buildJudgeMessages(instructions: string, spans: TGradingSpan[], content: string): ChatMessage[] {
  const root = findRootSpan(spans);
  const user = [
    `## Grader instructions\n${instructions}`,
    `## Trace outline${root ? ` (root span "${root.name}")` : ""}\n${traceOutline(spans)}`,
    `## Content to grade\n${content}`,
  ].join("\n\n");
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: user },
  ];
}

export type JudgeAnswer = { ok: true; verdict: TVerdict } | { ok: false; reason: string };

/** Reads the judge's answer defensively: fenced or embedded JSON, string labels, numeric confidence. */
export function parseJudgeAnswer(content: string): JudgeAnswer {
  const parsed = extractJsonObject(content);
  const snippet = JSON.stringify(content.slice(0, 200));
  if (!parsed) return { ok: false, reason: `The judge did not answer with a JSON object: ${snippet}` };
  const label = readLabel(parsed.label);
  if (label === undefined) return { ok: false, reason: `The judge's answer has no boolean "label": ${snippet}` };
  const reason = typeof parsed.reason === "string" && parsed.reason.trim() ? parsed.reason.trim().slice(0, MAX_REASON_CHARS) : null;
  return { ok: true, verdict: { label, reason, failureDiagnostic: null, confidence: readConfidence(parsed.confidence) } };
}

function extractJsonObject(content: string): Record<string, unknown> | null {
  const unfenced = content.replace(/^\s*```(?:json)?\s*/i, "").replace(/\s*```\s*$/, "");
  for (const candidate of [unfenced, unfenced.slice(unfenced.indexOf("{"), unfenced.lastIndexOf("}") + 1)]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      /* try the next candidate */
    }
  }
  return null;
}

function readLabel(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const v = value.trim().toLowerCase();
  if (["true", "pass", "passed", "yes"].includes(v)) return true;
  if (["false", "fail", "failed", "no"].includes(v)) return false;
  return undefined;
}

/** labelConfidence is a string: low | medium | high; a 0–1 (or 0–100) number is bucketed. */
function readConfidence(value: unknown): string | null {
  if (typeof value === "string" && ["low", "medium", "high"].includes(value.trim().toLowerCase())) return value.trim().toLowerCase();
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > 100) return null;
  const p = n > 1 ? n / 100 : n;
  return p < 0.5 ? "low" : p < 0.8 ? "medium" : "high";
}
