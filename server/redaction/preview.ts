// The console's "try it" box: what rules would make of a sample, computed without storing anything.
import { Redactor, type TRedactionCounts } from "./redactor.ts";
import type { TRedactionRules } from "./redaction.schemas.ts";

export function previewRedaction(rules: TRedactionRules, sample: string): { text: string; masked: Record<string, number> } {
  const counts: TRedactionCounts = new Map();
  let parsed: unknown = sample;
  try {
    parsed = JSON.parse(sample);
  } catch {
    // Plain text: the patterns apply to it as one string.
  }
  const out = new Redactor(0, rules).value(parsed, counts, []);
  return { text: typeof out === "string" ? out : JSON.stringify(out, null, 2), masked: Object.fromEntries(counts) };
}
