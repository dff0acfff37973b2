// What the judge model is asked when it drafts assertions or finds span evidence, and how its answer is read
// (docs/api/assertions.md, "Generation"). Spans are listed with their ids so the model can cite them; each
// span's input and output are cut to a budget.
import { z } from "zod";
import type { ChatMessage } from "../grading/judge-prompt.ts";
import { truncate } from "../grading/judge-prompt.ts";
import type { TGradingSpan } from "../grading/grading.schemas.ts";

const SPAN_BUDGET = 1_500;
const TRACE_BUDGET = 40_000;

const text = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v));

/** Spans in start order with id, name, type, error and cut input/output. */
export function spansForPrompt(spans: TGradingSpan[]): string {
  const ordered = [...spans].sort((a, b) => (a.startedAt?.getTime() ?? 0) - (b.startedAt?.getTime() ?? 0));
  const parts = ordered.map((s) =>
    [
      `[ID: ${s.id}] ${s.name} (${s.type})${s.error ? ` ERROR: ${truncate(s.error, 300)}` : ""}`,
      s.contentOff ? "  (content not captured)" : `  input: ${truncate(text(s.input), SPAN_BUDGET)}\n  output: ${truncate(text(s.output), SPAN_BUDGET)}`,
    ].join("\n"),
  );
  return truncate(parts.join("\n"), TRACE_BUDGET);
}

export function assertionDraftMessages(spans: TGradingSpan[], guidance: string | undefined, categories: { id: string; title: string; description: string | null }[]): ChatMessage[] {
  const system = [
    "You review one recorded execution (a trace) of an LLM or agent application and propose assertions: what the next run of this trace must do.",
    "Each assertion is checked on a later replay of the trace. Cite the spans that justify it by their ids.",
    "Answer with one JSON object and nothing else:",
    '{"assertions": [{"assertion": "one sentence", "passCriteria": "…", "failCriteria": "…", "target": null | {"kind": "output"} | {"kind": "span", "name": "<span name>"}, "justification": [{"spanId": "<id>", "text": "why this span matters"}], "categoryId": null | "<category id>"}]}',
    "Propose 1 to 5 assertions.",
  ].join("\n");
  const user = [
    guidance ? `Guidance from the user: ${guidance}` : "",
    categories.length ? `Categories you may use:\n${categories.map((c) => `- ${c.id}: ${c.title}${c.description ? ` (${c.description})` : ""}`).join("\n")}` : "",
    `Trace spans:\n${spansForPrompt(spans)}`,
  ].filter(Boolean).join("\n\n");
  return [{ role: "system", content: system }, { role: "user", content: user }];
}

export function evidenceMessages(spans: TGradingSpan[], assertion: { assertion: string; passCriteria: string | null; failCriteria: string | null }): ChatMessage[] {
  const system = [
    "You find span evidence in one recorded execution (a trace) for or against one assertion.",
    "Answer with one JSON object and nothing else:",
    '{"evidence": [{"spanId": "<id of a span below>", "text": "what this span shows about the assertion"}]}',
    "Give 1 to 10 entries, most telling first.",
  ].join("\n");
  const user = [
    `Assertion: ${assertion.assertion}`,
    assertion.passCriteria ? `Passes when: ${assertion.passCriteria}` : "",
    assertion.failCriteria ? `Fails when: ${assertion.failCriteria}` : "",
    `Trace spans:\n${spansForPrompt(spans)}`,
  ].filter(Boolean).join("\n");
  return [{ role: "system", content: system }, { role: "user", content: user }];
}

const ZEvidenceItem = z.object({ spanId: z.string(), text: z.string().min(1).max(10_000) });
const ZDraft = z.object({
  assertion: z.string().min(1).max(20_000),
  passCriteria: z.string().max(20_000).nullish(),
  failCriteria: z.string().max(20_000).nullish(),
  target: z.union([z.object({ kind: z.literal("output") }), z.object({ kind: z.literal("span"), name: z.string().min(1).max(500) })]).nullish(),
  justification: z.array(ZEvidenceItem).max(50).nullish(),
  categoryId: z.string().nullish(),
});
export type TDraft = z.infer<typeof ZDraft>;

function parseJson(content: string): unknown {
  const start = content.indexOf("{");
  const end = content.lastIndexOf("}");
  try {
    return JSON.parse(start >= 0 && end > start ? content.slice(start, end + 1) : content);
  } catch {
    return undefined;
  }
}

export function parseDrafts(content: string): { ok: true; drafts: TDraft[] } | { ok: false; reason: string } {
  const parsed = z.object({ assertions: z.array(ZDraft).min(1).max(20) }).safeParse(parseJson(content));
  return parsed.success ? { ok: true, drafts: parsed.data.assertions } : { ok: false, reason: `The model's answer is not a list of assertions: ${content.slice(0, 200)}` };
}

export function parseEvidence(content: string): { ok: true; evidence: z.infer<typeof ZEvidenceItem>[] } | { ok: false; reason: string } {
  const parsed = z.object({ evidence: z.array(ZEvidenceItem).max(50) }).safeParse(parseJson(content));
  return parsed.success ? { ok: true, evidence: parsed.data.evidence } : { ok: false, reason: `The model's answer is not a list of evidence: ${content.slice(0, 200)}` };
}
