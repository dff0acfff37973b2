// Small readers shared by the convention mappers: attributes arrive as strings, numbers, arrays, or JSON
// text holding structure (most instrumentations serialize messages into one string attribute).
import type { TAttributes } from "../otel-span.ts";

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** JSON text that holds an object or array, parsed; anything else as it is. */
export function parseJsonish(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const t = value.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return value;
  try {
    return JSON.parse(t);
  } catch {
    return value;
  }
}

/** A non-negative count from a number or numeric string; null otherwise. */
export function count(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
}

export const str = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** Reads attributes and remembers which ones a mapper used, so the rest become metadata. */
export class AttributeReader {
  readonly used = new Set<string>();
  constructor(readonly attributes: TAttributes) {}

  has(key: string): boolean {
    return Object.hasOwn(this.attributes, key);
  }

  /** The value of the first key present (each key read is marked used). */
  take(...keys: string[]): unknown {
    for (const key of keys) {
      if (this.has(key)) {
        this.used.add(key);
        return this.attributes[key];
      }
    }
    return undefined;
  }

  /** Keys starting with `prefix`, marked used. */
  takePrefix(prefix: string): Array<[string, unknown]> {
    const out: Array<[string, unknown]> = [];
    for (const key of Object.keys(this.attributes)) {
      if (key.startsWith(prefix)) {
        this.used.add(key);
        out.push([key, this.attributes[key]]);
      }
    }
    return out;
  }

  /**
   * Flattened indexed attributes (`llm.input_messages.0.message.role`) under `prefix` as a list of
   * objects keyed by the rest of the path (`message.role`), in index order.
   */
  takeIndexed(prefix: string): Array<Record<string, unknown>> {
    const rows = new Map<number, Record<string, unknown>>();
    for (const [key, value] of this.takePrefix(prefix)) {
      const m = /^(\d+)\.(.+)$/.exec(key.slice(prefix.length));
      if (!m) continue;
      const row = rows.get(Number(m[1])) ?? {};
      row[m[2]] = value;
      rows.set(Number(m[1]), row);
    }
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row);
  }

  /** The attributes no mapper used. */
  rest(): TAttributes {
    const out: TAttributes = {};
    for (const [key, value] of Object.entries(this.attributes)) {
      if (!this.used.has(key)) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
}

/** Indexed sub-rows of one flattened row: `tool_calls.0.name` → [{name}] for prefix `tool_calls.`. */
export function subRows(row: Record<string, unknown>, prefix: string): Array<Record<string, unknown>> {
  const rows = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(row)) {
    if (!key.startsWith(prefix)) continue;
    const m = /^(\d+)\.(.+)$/.exec(key.slice(prefix.length));
    if (!m) continue;
    const sub = rows.get(Number(m[1])) ?? {};
    sub[m[2]] = value;
    rows.set(Number(m[1]), sub);
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, sub]) => sub);
}
