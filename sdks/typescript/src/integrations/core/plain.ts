// Turns framework objects (LangChain messages, documents, results) into plain JSON data before recording, so a span
// stores readable content instead of a class instance flagged as degraded.
import { record } from "./values.js";

const MAX_DEPTH = 32;

/** A hook that may turn an object into plain data (return undefined to let `toPlain` walk it). */
export type PlainHook = (value: object) => unknown;

/** A plain-data copy of `value`: arrays and objects walked, class instances through the hook or `toJSON`. */
export function toPlain(value: unknown, hook?: PlainHook, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== "object") return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  if (depth >= MAX_DEPTH || seen.has(value)) return "[truncated]";
  seen.add(value);
  try {
    const hooked = hook?.(value);
    if (hooked !== undefined) return toPlain(hooked, undefined, depth + 1, seen);
    if (Array.isArray(value)) return value.map((v) => toPlain(v, hook, depth + 1, seen));
    if (value instanceof Date || value instanceof Map || value instanceof Set || ArrayBuffer.isView(value)) return value;
    const proto = Object.getPrototypeOf(value) as object | null;
    const plain = proto === null || proto === Object.prototype;
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (!plain && typeof toJSON === "function") return toPlain(toJSON.call(value), hook, depth + 1, seen);
    const copy: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const converted = toPlain(v, hook, depth + 1, seen);
      if (converted !== undefined) copy[key] = converted;
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

/** A LangChain message (`BaseMessage` or one of its chunks) as `{role, content, …}`; undefined for anything else. */
export function langchainMessage(value: object): Record<string, unknown> | undefined {
  const message = value as { _getType?: () => string; getType?: () => string; type?: unknown; content?: unknown };
  const getType = typeof message.getType === "function" ? message.getType : message._getType;
  if (typeof getType !== "function" || !("content" in message)) return undefined;
  const m = value as Record<string, unknown>;
  const out: Record<string, unknown> = { role: getType.call(value), content: m.content };
  for (const key of ["name", "tool_calls", "tool_call_id", "usage_metadata"]) {
    const v = m[key];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) out[key] = v;
  }
  const responseModel = record(m.response_metadata)?.model_name;
  if (typeof responseModel === "string") out.model = responseModel;
  return out;
}
