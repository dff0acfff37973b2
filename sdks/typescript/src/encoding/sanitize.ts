/**
 * Prepares a value for superjson: keeps everything superjson round-trips (plain objects, arrays, Map, Set, Date,
 * RegExp, Error, URL, BigInt, typed arrays, undefined, NaN, repeated and circular references), and replaces what
 * cannot round-trip. Functions, symbols, promises, weak collections, throwing getters and over-deep nesting become
 * `<unserializable: …>` stubs; other class instances are copied as plain data. Each loss is reported so the span
 * can carry a `serialization_degraded` entry (docs/sdk-transport.md, "Payloads": Values).
 */
const MAX_DEPTH = 64;

/** Result of sanitizing: the value to hand to superjson and the names of what could not be kept faithfully. */
export interface Sanitized {
  value: unknown;
  lost: string[];
  /** False when the copy is plain JSON data, so superjson would add no meta and can be skipped. */
  needsMeta: boolean;
}

/** Returns the `<unserializable: reason>` placeholder used across the SDKs. */
export function unserializable(reason: string): string {
  return `<unserializable: ${reason}>`;
}

/** Walks `value` and returns a superjson-safe copy plus the list of lossy conversions. */
export function sanitize(value: unknown): Sanitized {
  const walker = new Walker();
  const result = walker.walk(value, 0);
  return { value: result, lost: [...walker.lost], needsMeta: walker.needsMeta };
}

class Walker {
  readonly lost = new Set<string>();
  /** Set when something only superjson's meta can describe was met (Date, Map, undefined, NaN, a shared reference…). */
  needsMeta = false;
  private readonly seen = new Map<object, unknown>();

  walk(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case "function":
        return this.stub("function");
      case "symbol":
        return this.stub("symbol");
      case "object":
        return value === null ? null : this.walkObject(value, depth);
      case "string":
      case "boolean":
        return value;
      case "number":
        if (!Number.isFinite(value) || Object.is(value, -0)) this.needsMeta = true;
        return value;
      default: // undefined, bigint
        this.needsMeta = true;
        return value;
    }
  }

  private stub(reason: string): string {
    this.lost.add(reason);
    return unserializable(reason);
  }

  private walkObject(value: object, depth: number): unknown {
    const known = this.seen.get(value);
    if (known !== undefined) {
      this.needsMeta = true; // repeated or circular: superjson keeps the reference
      return known;
    }
    if (depth >= MAX_DEPTH) return this.stub("max_depth");
    if (isLeafObject(value)) {
      this.needsMeta = true;
      return value;
    }
    if (ArrayBuffer.isView(value)) {
      this.needsMeta = true;
      return copyView(value);
    }
    if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) {
      return this.stub(value.constructor.name);
    }
    if (Array.isArray(value)) return this.walkArray(value, depth);
    if (value instanceof Map) return this.walkMap(value, depth);
    if (value instanceof Set) return this.walkSet(value, depth);
    return this.walkRecord(value, depth);
  }

  private walkArray(value: unknown[], depth: number): unknown[] {
    const copy: unknown[] = [];
    this.seen.set(value, copy);
    for (let i = 0; i < value.length; i += 1) copy.push(this.walk(value[i], depth + 1)); // holes read as undefined
    return copy;
  }

  private walkMap(value: Map<unknown, unknown>, depth: number): Map<unknown, unknown> {
    this.needsMeta = true;
    const copy = new Map<unknown, unknown>();
    this.seen.set(value, copy);
    for (const [k, v] of value) copy.set(this.walk(k, depth + 1), this.walk(v, depth + 1));
    return copy;
  }

  private walkSet(value: Set<unknown>, depth: number): Set<unknown> {
    this.needsMeta = true;
    const copy = new Set<unknown>();
    this.seen.set(value, copy);
    for (const v of value) copy.add(this.walk(v, depth + 1));
    return copy;
  }

  private walkRecord(value: object, depth: number): unknown {
    const proto = Object.getPrototypeOf(value) as object | null;
    const plain = proto === null || proto === Object.prototype;
    if (!plain) {
      this.lost.add(value.constructor?.name || "object");
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") return this.walkToJson(value, toJSON, depth);
    }
    const copy: Record<string, unknown> = {};
    this.seen.set(value, copy);
    for (const key of Object.keys(value)) {
      copy[key] = this.readProperty(value, key, depth);
    }
    return copy;
  }

  private walkToJson(value: object, toJSON: Function, depth: number): unknown {
    try {
      return this.walk(toJSON.call(value), depth + 1);
    } catch {
      return this.stub("toJSON_threw");
    }
  }

  private readProperty(value: object, key: string, depth: number): unknown {
    try {
      return this.walk((value as Record<string, unknown>)[key], depth + 1);
    } catch {
      return this.stub("getter_threw");
    }
  }
}

/** Objects superjson serializes itself and that need no walking. */
function isLeafObject(value: object): boolean {
  return value instanceof Date || value instanceof RegExp || value instanceof Error || value instanceof URL;
}

/** Typed arrays round-trip through superjson by constructor name; a Buffer is sent as the Uint8Array it is. */
function copyView(value: ArrayBufferView): unknown {
  if (typeof Buffer !== "undefined" && Buffer.isBuffer(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  if (value instanceof DataView) return Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  return value;
}
