// Whether a value the server built (the native door's span payloads) can be validated as it is, without
// serializing it and parsing the text again: it must be exactly what JSON.parse would give back for its
// own JSON text (plain objects and arrays, strings, finite numbers, booleans, null; no undefined), store
// as it is (no NUL, no unpaired surrogate, which sanitize.ts would replace), and nest no deeper than the
// text path allows (json-depth.ts). A value that is not takes the text path, rare and unchanged.
import { MAX_JSON_DEPTH } from "./json-depth.ts";
import { needsCleaning } from "./sanitize.ts";

const storable = (s: string) => !needsCleaning(s);

function plainScalar(value: unknown): boolean {
  switch (typeof value) {
    case "string":
      return storable(value);
    case "number":
      return Number.isFinite(value);
    case "boolean":
      return true;
    default:
      return value === null;
  }
}

export function isPlainJson(root: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== "object") {
      if (!plainScalar(value)) return false;
      continue;
    }
    if (depth >= maxDepth) return false;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
      continue;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return false;
    for (const key of Object.keys(value)) {
      if (!storable(key)) return false;
      stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return true;
}
