// One assertion's verdict on one replay trace (docs/replay.md, "Complete"):
// with a `check`, deterministic through the graders' target and check functions; without, asked of the LLM
// judge. A target that cannot be found, or a stored target/check that no longer parses, is errored
// (label null), never passed (docs/replay.md, "Complete").
import { evaluateRule } from "../../../grading/checks.ts";
import { erroredVerdict, type TGradingSpan, type TVerdict } from "../../../grading/grading.schemas.ts";
import { ZCheck, ZTarget } from "../../../graders/grader-config.schemas.ts";
import { judgeTrace, type JudgeOptions } from "../../../grading/judge.ts";

export interface AssertionToJudge {
  assertion: string;
  passCriteria: string | null;
  failCriteria: string | null;
  targetOnEvaluatedTrace: unknown;
  check: unknown;
}

export interface JudgeSettings {
  model: string;
  options?: JudgeOptions;
}

export async function evaluateAssertion(a: AssertionToJudge, spans: TGradingSpan[], judge: JudgeSettings): Promise<TVerdict> {
  const target = ZTarget.safeParse(a.targetOnEvaluatedTrace ?? null);
  if (!target.success) return erroredVerdict(`The assertion's targetOnEvaluatedTrace is not a valid target: ${target.error.issues[0]?.message}.`);
  if (a.check !== null && a.check !== undefined) {
    const check = ZCheck.safeParse(a.check);
    if (!check.success) return erroredVerdict(`The assertion's check is not valid: ${check.error.issues[0]?.message}.`);
    return evaluateRule(spans, { target: target.data, check: check.data });
  }
  return judgeTrace({ model: judge.model, instructions: judgeInstructions(a), target: target.data }, spans, judge.options);
}

/** The assertion and its criteria, as the judge's instructions. */
export function judgeInstructions(a: AssertionToJudge): string {
  return [
    `The trace must satisfy this assertion: ${a.assertion}`,
    ...(a.passCriteria ? [`It passes when: ${a.passCriteria}`] : []),
    ...(a.failCriteria ? [`It fails when: ${a.failCriteria}`] : []),
  ].join("\n");
}

/** The judge answers low/medium/high; trace labels use the VeryLow…VeryHigh scale of docs/api/labels.md. */
export function toLabelConfidence(confidence: string | null): string | null {
  const c = confidence?.trim().toLowerCase();
  const scale: Record<string, string> = { verylow: "VeryLow", low: "Low", medium: "Medium", high: "High", veryhigh: "VeryHigh" };
  return c ? (scale[c.replace(/[\s_-]/g, "")] ?? null) : null;
}
