// Custom redaction patterns run on every string ingested, so a pattern that backtracks catastrophically would
// stall ingestion (ReDoS). JavaScript's engine has no timeout, so a pattern is accepted only from a safe subset
// (docs/operations.md, "Redaction"): no backreferences, no quantified group that itself holds a quantifier or
// an alternation (the shapes of exponential backtracking: `(a+)+`, `(a|a)*`), a length cap, and a probe on
// hostile inputs that must finish quickly.

/** What is wrong with the pattern, or null when it may be used. */
export function checkSafePattern(pattern: string, flags = ""): string | null {
  let re: RegExp;
  try {
    re = new RegExp(pattern, `${flags}g`);
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
  const shape = unsafeShape(pattern);
  if (shape) return shape;
  re.lastIndex = 0;
  if (re.test("")) return "matches the empty string (it would match everywhere)";
  return probe(re);
}

interface Group {
  /** The group holds an unbounded or repeated quantifier, or an alternation. */
  risky: boolean;
}

/** Walks the pattern's source once, tracking groups; returns a reason for the first unsafe shape found. */
function unsafeShape(source: string): string | null {
  const stack: Group[] = [{ risky: false }];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (!inClass && (/[1-9]/.test(next) || next === "k")) return "backreferences are not allowed";
      i++;
      i = afterQuantifier(source, i + 1, stack) - 1;
      continue;
    }
    if (inClass) {
      if (c === "]") {
        inClass = false;
        i = afterQuantifier(source, i + 1, stack) - 1;
      }
      continue;
    }
    if (c === "[") {
      inClass = true;
      if (source[i + 1] === "]") i++;
    } else if (c === "(") {
      stack.push({ risky: false });
    } else if (c === ")") {
      const group = stack.pop();
      if (!group || stack.length === 0) return "unbalanced parentheses";
      const end = afterQuantifier(source, i + 1, stack);
      if (end > i + 1 && repeats(source.slice(i + 1, end)) && group.risky) {
        return "a repeated group may not itself hold a quantifier or an alternation (nested quantifiers backtrack catastrophically)";
      }
      if (group.risky) stack[stack.length - 1].risky = true;
      i = end - 1;
    } else if (c === "|") {
      stack[stack.length - 1].risky = true;
    } else {
      i = afterQuantifier(source, i + 1, stack) - 1;
    }
  }
  return null;
}

/** Index after a quantifier starting at `at` (or `at` itself when there is none); marks the group risky. */
function afterQuantifier(source: string, at: number, stack: Group[]): number {
  const m = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/.exec(source.slice(at));
  if (!m) return at;
  if (repeats(m[0])) stack[stack.length - 1].risky = true;
  return at + m[0].length;
}

/** A quantifier that can match its atom more than once (not `?` or `{0,1}`/`{1}`). */
function repeats(quantifier: string): boolean {
  if (/^[*+]/.test(quantifier)) return true;
  const m = /^\{(\d+)(?:,(\d*))?\}/.exec(quantifier);
  if (!m) return false;
  if (m[2] === undefined) return Number(m[1]) > 1;
  return m[2] === "" || Number(m[2]) > 1;
}

/** Inputs on which polynomial backtracking shows, 20,000 characters each. */
const PROBES = ["a", "0", " ", "a0", "-.", "@a.", "x="].map((unit) => unit.repeat(Math.ceil(20_000 / unit.length)) + "!\u0000");
/** A probe slower than this marks the pattern as too costly for the ingestion path. */
const PROBE_BUDGET_MS = 50;

function probe(re: RegExp): string | null {
  const started = performance.now();
  for (const input of PROBES) {
    re.lastIndex = 0;
    input.replace(re, "");
    if (performance.now() - started > PROBE_BUDGET_MS) return "too slow on long inputs (it backtracks heavily); simplify it";
  }
  return null;
}
