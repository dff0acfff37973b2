// Rule checks (docs/graders.md, "Rule graders"): pure and deterministic, reused by
// assertion checks. Every verdict says why; a target or value that cannot be read is errored, never passed.
import vm from "node:vm";
import { erroredVerdict, type TGradingSpan, type TVerdict } from "./grading.schemas.ts";
import { type TCheck, type TTarget } from "../graders/grader-config.schemas.ts";
import type { TGraderOutput } from "../graders/grader-output.schemas.ts";
import { jsonText, readTargetValue, resolveTarget, type ResolvedTarget } from "./targets.ts";

/** A user's regular expression may backtrack catastrophically; it gets this long, then the verdict errors. */
export const REGEX_TIMEOUT_MS = 250;
const SHOWN_CHARS = 200;

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? "null";
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
};
const verdict = (label: boolean, reason: string): TVerdict => ({ label, reason, failureDiagnostic: null, confidence: null });

/**
 * Resolves the target and evaluates the check: the whole rule grader in one pure call. A grader whose output is a
 * score records the value its numeric check measured (docs/graders.md, "Scores and categories"); a value outside
 * the grader's range is an errored verdict, never a silent pass.
 */
export function evaluateRule(spans: TGradingSpan[], rule: { target?: TTarget; check: TCheck; output?: TGraderOutput }): TVerdict {
  const resolved = resolveTarget(spans, rule.target ?? null);
  if (!resolved.ok) return erroredVerdict(`Target not found: ${resolved.missing}.`);
  const { score, ...checked } = evaluateCheck(rule.check, resolved.target);
  if (rule.output?.type !== "score" || checked.label === null) return checked;
  const { min, max } = rule.output;
  if (score === undefined || score === null) return erroredVerdict(`The ${rule.check.op} check measured no value to record as a score.`);
  if (score < min || score > max) return erroredVerdict(`The measured value ${score} lies outside the grader's score range [${min}, ${max}].`);
  return { ...checked, score, category: null };
}

export function evaluateCheck(check: TCheck, target: ResolvedTarget): TVerdict {
  switch (check.op) {
    case "equals":
    case "contains":
    case "matches":
      return evaluateValueCheck(check, target);
    case "noErrors":
      return noErrors(target);
    case "maxDurationMs":
      return maxDuration(target, check.value);
    case "maxTotalTokens":
      return maxTokens(target, check.value);
  }
}

function evaluateValueCheck(check: Extract<TCheck, { op: "equals" | "contains" | "matches" }>, target: ResolvedTarget): TVerdict {
  const read = readTargetValue(target);
  if (!read.ok) return erroredVerdict(`Target value not available: ${read.missing}.`);
  const what = target.description;
  if (check.op === "equals") {
    return jsonEqual(read.value, check.value)
      ? verdict(true, `${what} equals the expected value`)
      : verdict(false, `${what} is ${show(read.value)}, expected ${show(check.value)}`);
  }
  const text = jsonText(read.value);
  if (check.op === "contains") {
    return text.includes(check.value)
      ? verdict(true, `${what} contains ${show(check.value)}`)
      : verdict(false, `${what} does not contain ${show(check.value)} (it is ${show(text)})`);
  }
  const matched = testRegex(check.value, check.flags ?? "", text);
  if (matched === "timeout") return erroredVerdict(`The regular expression /${check.value}/ took longer than ${REGEX_TIMEOUT_MS} ms on ${what}.`);
  return matched
    ? verdict(true, `${what} matches /${check.value}/${check.flags ?? ""}`)
    : verdict(false, `${what} does not match /${check.value}/${check.flags ?? ""} (it is ${show(text)})`);
}

function testRegex(source: string, flags: string, text: string): boolean | "timeout" {
  try {
    return vm.runInNewContext("re.test(text)", { re: new RegExp(source, flags), text }, { timeout: REGEX_TIMEOUT_MS }) as boolean;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return "timeout";
    throw error;
  }
}

function noErrors(target: ResolvedTarget): TVerdict {
  const failed = target.subtree.filter((s) => s.error !== null && s.error !== "");
  if (failed.length === 0) return verdict(true, `no span in ${target.description} recorded an error`);
  const names = failed.slice(0, 5).map((s) => `"${s.name}": ${s.error!.slice(0, 100)}`);
  return verdict(false, `${failed.length} span(s) in ${target.description} recorded an error (${names.join("; ")})`);
}

function maxDuration(target: ResolvedTarget, limit: number): TVerdict {
  const starts = target.subtree.flatMap((s) => (s.startedAt ? [s.startedAt.getTime()] : []));
  const ends = target.subtree.flatMap((s) => (s.endedAt ? [s.endedAt.getTime()] : []));
  if (starts.length === 0 || ends.length === 0) return erroredVerdict(`No start and end times were recorded for ${target.description}.`);
  const duration = Math.max(...ends) - Math.min(...starts);
  const v = duration <= limit
    ? verdict(true, `${target.description} took ${duration} ms (limit ${limit} ms)`)
    : verdict(false, `${target.description} took ${duration} ms, over the limit of ${limit} ms`);
  return { ...v, score: duration };
}

function maxTokens(target: ResolvedTarget, limit: number): TVerdict {
  const counted = target.subtree
    .map((s) => s.totalTokens ?? (s.inputTokens !== null || s.outputTokens !== null ? (s.inputTokens ?? 0) + (s.outputTokens ?? 0) : null))
    .filter((n): n is number => n !== null);
  // No token data is not zero tokens: we cannot tell, so the verdict errors rather than passes.
  if (counted.length === 0) return erroredVerdict(`No token counts were recorded in ${target.description}.`);
  const total = counted.reduce((a, b) => a + b, 0);
  const v = total <= limit
    ? verdict(true, `${target.description} used ${total} tokens (limit ${limit})`)
    : verdict(false, `${target.description} used ${total} tokens, over the limit of ${limit}`);
  return { ...v, score: total };
}

/** Deep JSON equality: object key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
