// A compiled rule set: masks the string values of a JSON document in place and counts what each rule changed
// (docs/operations.md, "Redaction"). Patterns replace what they match with `[REDACTED:<label>]`; a field rule
// replaces the whole value of a matching key. Only strings are read: numbers, booleans and keys stay.
import { BUILTIN_DETECTORS, type TDetector } from "./builtins.ts";
import type { TRedactionRules } from "./redaction.schemas.ts";

/** Rule label → values changed. */
export type TRedactionCounts = Map<string, number>;

export const FIELD_MASK = "[REDACTED]";
const MASKED = /\[REDACTED:([\w:.-]+)\]/g;

/** Keys whose values are never touched: a Set applies to the top object level only, a DeepKeep to every level. */
export type TKeep = ReadonlySet<string> | DeepKeep;
export class DeepKeep {
  constructor(readonly has: (key: string) => boolean) {}
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export class Redactor {
  private readonly detectors: TDetector[];
  private readonly names: Set<string>;
  private readonly paths: string[][];

  constructor(
    readonly version: number,
    rules: TRedactionRules,
  ) {
    this.detectors = [
      ...rules.builtins.map((b) => BUILTIN_DETECTORS[b]),
      ...rules.patterns.map((p) => ({ label: `custom:${p.name}`, re: new RegExp(p.pattern, `${p.flags}g`) })),
    ];
    this.names = new Set(rules.fields.filter((f) => !f.startsWith("$")).map((f) => f.toLowerCase()));
    this.paths = rules.fields.filter((f) => f.startsWith("$")).map((f) => f.split(".").slice(1));
  }

  /** The string with every pattern's matches masked. */
  text(value: string, counts: TRedactionCounts): string {
    // A document redacted before (a native span mapped again when its log events arrive) keeps its count.
    if (value.includes("[REDACTED:")) for (const m of value.matchAll(MASKED)) bump(counts, m[1]);
    let out = value;
    for (const d of this.detectors) {
      d.re.lastIndex = 0;
      if (!d.re.test(out)) continue;
      d.re.lastIndex = 0;
      out = out.replace(d.re, (match) => {
        if (d.accept && !d.accept(match)) return match;
        bump(counts, d.label);
        return `[REDACTED:${d.label}]`;
      });
    }
    return out;
  }

  /**
   * Redacts a JSON value: objects and arrays in place, a string by the value returned. `path` is the position
   * from the document JSON paths are written against (null: paths do not apply); `keep` names keys whose
   * values are identities (ids, times) and are never touched.
   */
  value(value: unknown, counts: TRedactionCounts, path: string[] | null = null, keep?: TKeep): unknown {
    if (typeof value === "string") return this.text(value, counts);
    const inner = keep instanceof DeepKeep ? keep : undefined;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.value(value[i], counts, path, inner);
      return value;
    }
    if (!isObject(value)) return value;
    for (const key of Object.keys(value)) {
      if (keep?.has(key)) continue;
      const at = path === null ? null : [...path, key];
      if (this.names.has(key.toLowerCase()) || (at !== null && this.pathMatches(at))) {
        if (value[key] !== null) {
          value[key] = FIELD_MASK;
          bump(counts, `field:${key}`);
        }
        continue;
      }
      value[key] = this.value(value[key], counts, at, inner);
    }
    return value;
  }

  private pathMatches(at: string[]): boolean {
    return this.paths.some((p) => p.length === at.length && p.every((segment, i) => segment === "*" || segment === at[i]));
  }
}

function bump(counts: TRedactionCounts, label: string): void {
  counts.set(label, (counts.get(label) ?? 0) + 1);
}

/** The counts as one sentence for a span's `errors` entry: "masked 3 value(s): email ×2, secret ×1". */
export function describeCounts(counts: TRedactionCounts, version: number): string {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const parts = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([label, n]) => `${label} ×${n}`);
  return `masked ${total} value(s) under redaction rules version ${version}: ${parts.join(", ")}`;
}
