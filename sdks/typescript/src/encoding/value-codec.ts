import { deserialize, serialize } from "superjson";
import { sanitize, unserializable } from "./sanitize.js";

/** superjson meta descriptor (`{values, referentialEqualities?, v}`), stored verbatim by the server. */
export type ValueMeta = Record<string, unknown>;

/** A value encoded for `span_data.input`/`output` plus its `*_meta` (docs/sdk-transport.md, "Payloads": Values). */
export interface EncodedValue {
  json: unknown;
  meta?: ValueMeta;
  /** Names of what could not be captured faithfully (empty when the value round-trips). */
  lost: string[];
}

/**
 * Encodes a value with superjson after replacing what cannot round-trip. Never throws: a value superjson still
 * rejects becomes a single `<unserializable: …>` stub.
 */
export function encodeValue(value: unknown): EncodedValue {
  const { value: safe, lost, needsMeta } = sanitize(value);
  // Plain JSON data encodes to itself with no meta: skip superjson on the hot path.
  if (!needsMeta) return { json: safe, lost };
  try {
    const { json, meta } = serialize(safe);
    return meta === undefined ? { json, lost } : { json, meta: meta as ValueMeta, lost };
  } catch {
    return { json: unserializable(describeType(value)), lost: [...lost, describeType(value)] };
  }
}

/** Decodes `input`/`input_meta` (or output) back into the original value; plain JSON when there is no meta. */
export function decodeValue(json: unknown, meta: unknown): unknown {
  if (meta === undefined || meta === null || typeof meta !== "object") return json;
  return deserialize({ json: json as never, meta: meta as never });
}

/** Encodes a value to plain JSON-compatible data (no meta), for metadata and contexts. */
export function toJsonCompatible(value: unknown): unknown {
  // The `json` part is valid JSON even when meta exists (a Date becomes its ISO string, a BigInt its digits).
  return encodeValue(value).json;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return (value as object).constructor?.name ?? "object";
  return typeof value;
}
