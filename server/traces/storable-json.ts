// PostgreSQL's jsonb refuses NUL (\u0000) and unpaired surrogates, which JSON.parse happily produces.
// Such characters become U+FFFD so a request never fails with a 500 for them.

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Returns a copy of `value` whose strings and keys PostgreSQL can store, and whether anything changed. */
export function toStorableJson(value: unknown): { value: unknown; replaced: boolean } {
  let replaced = false;
  const fix = (s: string): string => {
    const out = s.replace(UNSTORABLE, "\uFFFD");
    if (out !== s) replaced = true;
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return fix(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(v)) {
        // defineProperty keeps "__proto__" an ordinary key instead of setting the prototype.
        Object.defineProperty(out, fix(k), { value: walk(child), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return v;
  };
  return { value: walk(value), replaced };
}

/** JSON text for a `::jsonb` parameter. */
export function toJsonbParam(value: unknown): string {
  return JSON.stringify(toStorableJson(value).value);
}
