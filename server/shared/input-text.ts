// The text rules every surface applies at its edge, once (docs/api.md, "Text and nesting rules"): a string
// or key with a NUL character or an unpaired UTF-16 surrogate (which PostgreSQL cannot store) is a 400
// naming the field, and a value nested deeper than MAX_INPUT_DEPTH is a 400 before anything walks it
// recursively. The walk itself is iterative, so no input can overflow the stack here.
import { AppError } from "../errors.ts";

/** The deepest nesting of objects and arrays any request may carry. */
export const MAX_INPUT_DEPTH = 64;

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface TextRuleOptions {
  /** Where the value came from, for the message: "body", "query", "path", "input", "arguments". */
  where: string;
  /**
   * Top-level fields whose contents are stored payloads with their own documented handling (NUL becomes
   * U+FFFD): only their depth is checked.
   */
  payloadFields?: readonly string[];
  /** Check the nesting only (the text of this value is checked later, where its fields are known). */
  depthOnly?: boolean;
}

/** What is wrong with one string, or null. */
function textProblem(s: string): string | null {
  if (!UNSTORABLE.test(s)) return null;
  return s.includes("\u0000") ? "must not contain NUL characters" : "must not contain unpaired UTF-16 surrogates";
}

const fail = (where: string, path: string, message: string) =>
  new AppError("validation_failed", `Invalid request ${where}: ${path ? `${path}: ` : ""}${message}`, {
    issues: [{ path, message }],
  });

/** Throws a 400 (validation_failed) for the first string or key that breaks the text rules, or for deep nesting. */
export function assertInputText(value: unknown, options: TextRuleOptions): void {
  const payload = new Set(options.payloadFields ?? []);
  const stack: Array<{ value: unknown; path: string; depth: number; textChecked: boolean }> = [
    { value, path: "", depth: 0, textChecked: !options.depthOnly },
  ];
  while (stack.length > 0) {
    const { value: v, path, depth, textChecked } = stack.pop()!;
    if (typeof v === "string") {
      const problem = textChecked ? textProblem(v) : null;
      if (problem) throw fail(options.where, path, problem);
      continue;
    }
    if (v === null || typeof v !== "object" || v instanceof Date) continue;
    if (depth >= MAX_INPUT_DEPTH) throw fail(options.where, path, `is nested deeper than ${MAX_INPUT_DEPTH} levels`);
    const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((item, i) => [String(i), item]) : Object.entries(v);
    for (const [key, child] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      if (textChecked && !Array.isArray(v)) {
        const problem = textProblem(key);
        if (problem) throw fail(options.where, path, `key ${JSON.stringify(key)} ${problem}`);
      }
      const checkChild = textChecked && !(depth === 0 && payload.has(key));
      stack.push({ value: child, path: childPath, depth: depth + 1, textChecked: checkChild });
    }
  }
}
