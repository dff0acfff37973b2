// Small text helpers shared by the tool renderers: agents read these texts, so payloads are cut with a
// note saying how to read the rest, never dumped whole.

/** JSON or string value as one readable text. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");
}

/** At most `max` characters of `text`, with a note naming how much was cut and how to read it whole. */
export function cut(text: string, max: number, hint: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [truncated: ${text.length - max} more characters; ${hint}]`;
}

export function verdictWord(label: boolean | null | undefined, status?: string): string {
  if (status === "skipped") return "skipped";
  if (status === "errored") return "errored";
  if (label === true) return "PASS";
  if (label === false) return "FAIL";
  return "unlabeled";
}

export function tokensText(t: { input: number; output: number; cached: number; total: number } | null | undefined): string {
  if (!t) return "n/a";
  return `in ${t.input}, out ${t.output}, cached ${t.cached}, total ${t.total}`;
}

/** USD with enough digits for a single call's cost (docs/cost.md). */
export function usd(value: number): string {
  if (value === 0) return "$0";
  const digits = Math.abs(value) >= 1 ? 2 : Math.abs(value) >= 0.01 ? 4 : 6;
  return `$${value.toFixed(digits)}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
