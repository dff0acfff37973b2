// What the LLM judge is asked, and how its answer is read (docs/graders.md, "LLM judge graders").
// The prompt has a fixed budget (docs/graders.md, "LLM judge graders"): instructions ≤ 8,000 characters
// (enforced when the grader is saved), outline ≤ 6,000, targeted content ≤ 24,000.
import { canonicalCategory, derivesLabel, type TGraderOutput } from "../graders/grader-output.schemas.ts";
import type { TGradingSpan, TVerdict } from "./grading.schemas.ts";
import { findRootSpan, jsonText, type ResolvedTarget } from "./targets.ts";

export const OUTLINE_BUDGET_CHARS = 6_000;
export const CONTENT_BUDGET_CHARS = 24_000;
const MAX_REASON_CHARS = 2_000;

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

const INTRO = "You are an evaluator. You grade one recorded execution (a trace) of an LLM or agent application against the grader's instructions.";
const LABEL = '"label": true if the trace passes the instructions or false if it fails';
const REST = '"reason": "one or two sentences", "confidence": "low" | "medium" | "high"';

/** The system message: the JSON the judge must answer with, by what the grader records (docs/graders.md). */
export function judgeSystemMessage(output: TGraderOutput = { type: "passFail" }): string {
  const fields: string[] = [];
  if (output.type === "score") fields.push(`"score": a number from ${output.min} to ${output.max} (inclusive) rating the trace against the instructions`);
  if (output.type === "category") fields.push(`"category": exactly one of ${output.categories.map((c) => JSON.stringify(c)).join(", ")}`);
  if (!derivesLabel(output)) fields.push(LABEL);
  return [INTRO, "Answer with one JSON object and nothing else:", `{${[...fields, REST].join(", ")}}`].join("\n");
}

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

export function buildJudgeMessages(instructions: string, spans: TGradingSpan[], content: string, output?: TGraderOutput): ChatMessage[] {
  const root = findRootSpan(spans);
  const user = [
    `## Grader instructions\n${instructions}`,
    `## Trace outline${root ? ` (root span "${root.name}")` : ""}\n${traceOutline(spans)}`,
    `## Content to grade\n${content}`,
  ].join("\n\n");
  return [
    { role: "system", content: judgeSystemMessage(output) },
    { role: "user", content: user },
  ];
}

export type JudgeAnswer = { ok: true; verdict: TVerdict } | { ok: false; reason: string };

/**
 * Reads the judge's answer defensively: fenced or embedded JSON, string labels, numeric confidence. A score or
 * category the grader asks for is read strictly: a missing, non-numeric or out-of-range score, or a category not
 * in the set, is an error (docs/graders.md, "Scores and categories"); pass/fail then derives from it where the
 * grader sets a threshold or passing categories.
 */
export function parseJudgeAnswer(content: string, output: TGraderOutput = { type: "passFail" }): JudgeAnswer {
  const parsed = extractJsonObject(content);
  const snippet = JSON.stringify(content.slice(0, 200));
  if (!parsed) return { ok: false, reason: `The judge did not answer with a JSON object: ${snippet}` };
  const scored = readScored(parsed, output, snippet);
  if (!scored.ok) return scored;
  const label = scored.label ?? readLabel(parsed.label);
  if (label === undefined) return { ok: false, reason: `The judge's answer has no boolean "label": ${snippet}` };
  const reason = typeof parsed.reason === "string" && parsed.reason.trim() ? parsed.reason.trim().slice(0, MAX_REASON_CHARS) : null;
  const extra = output.type === "passFail" ? {} : { score: scored.score, category: scored.category };
  return { ok: true, verdict: { label, reason, failureDiagnostic: null, confidence: readConfidence(parsed.confidence), ...extra } };
}

type Scored = { ok: true; score: number | null; category: string | null; label?: boolean } | { ok: false; reason: string };

function readScored(parsed: Record<string, unknown>, output: TGraderOutput, snippet: string): Scored {
  if (output.type === "score") {
    const score = parsed.score;
    if (typeof score !== "number" || !Number.isFinite(score)) return { ok: false, reason: `The judge's answer has no numeric "score": ${snippet}` };
    if (score < output.min || score > output.max) return { ok: false, reason: `The judge's score ${score} lies outside the grader's range [${output.min}, ${output.max}].` };
    return { ok: true, score, category: null, ...(output.passThreshold !== undefined ? { label: score >= output.passThreshold } : {}) };
  }
  if (output.type === "category") {
    const given = parsed.category;
    if (typeof given !== "string") return { ok: false, reason: `The judge's answer has no "category": ${snippet}` };
    const category = canonicalCategory(output, given);
    if (category === null) return { ok: false, reason: `The judge's category ${JSON.stringify(given.slice(0, 100))} is not one of the grader's categories (${output.categories.join(", ")}).` };
    return { ok: true, score: null, category, ...(output.passingCategories !== undefined ? { label: output.passingCategories.includes(category) } : {}) };
  }
  return { ok: true, score: null, category: null };
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
