// PostgreSQL refuses U+0000 in text and jsonb, and jsonb refuses unpaired UTF-16 surrogates (`"\ud800"`).
// Both are replaced by U+FFFD so the rest of the payload is stored; the caller records an `errors` entry
// saying so ("NUL is stored replaced by U+FFFD with an errors entry").

const REPLACEMENT = "\uFFFD";

// ES2024 string methods (Node ≥ 20); typed here because the project's lib is ES2023.
type WellFormedString = { isWellFormed(): boolean; toWellFormed(): string };
const isWellFormed = (s: string) => (s as unknown as WellFormedString).isWellFormed();
const toWellFormed = (s: string) => (s as unknown as WellFormedString).toWellFormed();
// In JSON text, NUL and surrogates can only appear escaped (or, for surrogates, raw in a JS string that
// did not come from UTF-8 bytes), so a cheap test on the text spares the walk for ordinary payloads.
const SUSPICIOUS_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

export interface SanitizeCounts {
  nul: number;
  surrogates: number;
}

export function mayNeedSanitizing(text: string): boolean {
  // includes() first: the regular expression took ~1 µs per 3 KB payload and 1.5% of the server's thread
  // under sustained ingestion; the plain search takes 0.04 µs (bench/README.md, "Session 9").
  return (text.includes("\\u") && SUSPICIOUS_ESCAPE.test(text)) || !isWellFormed(text);
}

function cleanString(s: string, counts: SanitizeCounts): string {
  let out = s;
  if (out.includes("\u0000")) {
    const parts = out.split("\u0000");
    counts.nul += parts.length - 1;
    out = parts.join(REPLACEMENT);
  }
  if (!isWellFormed(out)) {
    const fixed = toWellFormed(out);
    for (let i = 0; i < out.length; i++) if (out[i] !== fixed[i]) counts.surrogates++;
    out = fixed;
  }
  return out;
}

/** A string or key PostgreSQL cannot store as it is (sanitizeJsonValue replaces what it holds). */
export const needsCleaning = (s: string) => s.includes("\u0000") || !isWellFormed(s);

/**
 * Replaces NUL and unpaired surrogates in every string and key of a parsed JSON value, in place
 * (the root is returned, replaced when it is itself a string). Iterative, so nesting depth is no risk;
 * keys are redefined with defineProperty so a `__proto__` key stays an ordinary key.
 */
export function sanitizeJsonValue(root: unknown, counts: SanitizeCounts): unknown {
  if (typeof root === "string") return needsCleaning(root) ? cleanString(root, counts) : root;
  const stack: object[] = [];
  if (root && typeof root === "object") stack.push(root);
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      const value = node[key];
      let target = key;
      if (needsCleaning(key)) {
        target = cleanString(key, counts);
        delete node[key];
      }
      const cleaned = typeof value === "string" && needsCleaning(value) ? cleanString(value, counts) : value;
      if (target !== key || cleaned !== value) {
        Object.defineProperty(node, target, { value: cleaned, enumerable: true, writable: true, configurable: true });
      }
      if (cleaned && typeof cleaned === "object") stack.push(cleaned);
    }
  }
  return root;
}

/** The `errors` entry recorded on a span whose payload had to be cleaned. */
export function sanitizeNote(counts: SanitizeCounts): { source: "server"; step: "sanitize"; error: string } | undefined {
  if (counts.nul === 0 && counts.surrogates === 0) return undefined;
  const parts: string[] = [];
  if (counts.nul) parts.push(`${counts.nul} NUL character(s)`);
  if (counts.surrogates) parts.push(`${counts.surrogates} unpaired UTF-16 surrogate(s)`);
  return {
    source: "server",
    step: "sanitize",
    error: `replaced ${parts.join(" and ")} with U+FFFD: PostgreSQL cannot store them in text or JSON`,
  };
}
