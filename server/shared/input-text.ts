// The text rules every surface applies at its edge, once (docs/api.md, "Text and nesting rules"): a string
// or key with a NUL character or an unpaired UTF-16 surrogate (which PostgreSQL cannot store) is a 400
// naming the field, and a value nested deeper than MAX_INPUT_DEPTH is a 400 before anything walks it
// recursively. The walk itself is iterative, so no input can overflow the stack here.
import { isUtf8 } from "node:buffer";
import { AppError } from "../errors.ts";

/** The deepest nesting of objects and arrays any request may carry. */
export const MAX_INPUT_DEPTH = 64;

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface TextRuleOptions {
  /** Where the value came from, for the message: "body", "query", "path", "input", "arguments". */
  where: string;
  /**
   * Top-level fields whose contents are stored payloads with their own documented handling (NUL becomes
   * U+FFFD): only their depth is checked.
   */
  payloadFields?: readonly string[];
  /** Check the nesting only (the text of this value is checked later, where its fields are known). */
  depthOnly?: boolean;
}

/** What is wrong with one string, or null. */
function textProblem(s: string): string | null {
  if (!UNSTORABLE.test(s)) return null;
  return s.includes("\u0000") ? "must not contain NUL characters" : "must not contain unpaired UTF-16 surrogates";
}

const fail = (where: string, path: string, message: string) =>
  new AppError("validation_failed", `Invalid request ${where}: ${path ? `${path}: ` : ""}${message}`, {
    issues: [{ path, message }],
  });

/** A value met by the walk; its path is spelled out only for a message (the walk visits every value). */
interface TFrame {
  value: unknown;
  parent: TFrame | null;
  key: string | number;
  depth: number;
  textChecked: boolean;
}

/** "a.0.b" for the value at that path; "" for the root. */
function pathOf(frame: TFrame): string {
  const keys: Array<string | number> = [];
  for (let f: TFrame | null = frame; f?.parent; f = f.parent) keys.push(f.key);
  return keys.reverse().join(".");
}

/** Throws a 400 (validation_failed) for the first string or key that breaks the text rules, or for deep nesting. */
export function assertInputText(value: unknown, options: TextRuleOptions): void {
  const payload = new Set(options.payloadFields ?? []);
  const stack: TFrame[] = [{ value, parent: null, key: "", depth: 0, textChecked: !options.depthOnly }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value: v, depth, textChecked } = frame;
    if (typeof v === "string") {
      const problem = textChecked ? textProblem(v) : null;
      if (problem) throw fail(options.where, pathOf(frame), problem);
      continue;
    }
    if (v === null || typeof v !== "object" || v instanceof Date) continue;
    if (depth >= MAX_INPUT_DEPTH) throw fail(options.where, pathOf(frame), `is nested deeper than ${MAX_INPUT_DEPTH} levels`);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ value: v[i], parent: frame, key: i, depth: depth + 1, textChecked });
      continue;
    }
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      if (textChecked) {
        const problem = textProblem(key);
        if (problem) throw fail(options.where, pathOf(frame), `key ${JSON.stringify(key)} ${problem}`);
      }
      const checkChild = textChecked && !(depth === 0 && payload.has(key));
      stack.push({ value: (v as Record<string, unknown>)[key], parent: frame, key, depth: depth + 1, textChecked: checkChild });
    }
  }
}

/**
 * A JSON body's bytes as text, refusing bytes that are not UTF-8 with a 400 naming the field that holds them
 * (docs/api.md, "Text and nesting rules"): decoding would otherwise turn them into U+FFFD and store that.
 * The check is one validation pass over the bytes; the field is looked for only when it fails.
 */
export function decodeUtf8Text(bytes: Buffer, where: string): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  const bad = firstInvalidUtf8Byte(bytes);
  const path = fieldAt(bytes, bad);
  const at = path === null ? `byte ${bad}` : path || "(the whole value)";
  const message = "must be valid UTF-8 text";
  throw new AppError("validation_failed", `Invalid request ${where}: ${at}: ${message}`, { issues: [{ path: path ?? "", message: `${message} (byte ${bad} is not)` }] });
}

/** Stands for the bad byte while looking for its field; a noncharacter pair no client sends. */
const MARKER = "\u{10FFFF}\uFFFF";

/** The path of the string or key that holds the byte at `offset`, when the bytes are JSON ("" for a top-level string); else null. */
function fieldAt(bytes: Buffer, offset: number): string | null {
  let value: unknown;
  try {
    value = JSON.parse(bytes.subarray(0, offset).toString("utf8") + MARKER + bytes.subarray(offset + 1).toString("utf8"));
  } catch {
    return null;
  }
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: "" }];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes(MARKER)) return path;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, path: join(path, i) }));
    } else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes(MARKER)) return join(path, key.replace(MARKER, "\uFFFD"));
        stack.push({ value: item, path: join(path, key) });
      }
    }
  }
  return null;
}

/** The offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no overlongs, no surrogates). */
function firstInvalidUtf8Byte(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || !isUtf8(bytes.subarray(i, i + length))) return i;
    i += length;
  }
  return bytes.length;
}
