// Derived span columns computed at ingest (docs/api/ingestion.md, "Span payload").
//. Pure functions: no database, no I/O.

export const SPAN_TYPES = ["llm", "agent", "function", "guardrail", "handoff", "custom"] as const;
export type TSpanType = (typeof SPAN_TYPES)[number];

/** The name the service assigns when a span has none; the sim plan treats "reprise." names as locked. */
export const FALLBACK_SPAN_NAME = "reprise.external_span";

/**
 * Names and function keys are btree index keys; PostgreSQL refuses index rows over 2,704 bytes. 400
 * UTF-16 units are at most 1,200 UTF-8 bytes, so (organization, node_key, name) always fits.
 */
export const MAX_KEY_LENGTH = 400;

/**
 * The short labels the trace index also carries (model, instrumentation, source: migration 0285): 100 UTF-16
 * units, at most 300 UTF-8 bytes each, so name + the three + the fixed-width columns stay under 2,704 bytes
 * (docs/api/ingestion.md, "Span payload"). The span's raw payload keeps the whole value.
 */
export const MAX_LABEL_LENGTH = 100;

export function truncateKey(value: string, max = MAX_KEY_LENGTH): { value: string; truncated: boolean } {
  if (value.length <= max) return { value, truncated: false };
  let cut = value.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1); // never split a surrogate pair
  return { value: cut, truncated: true };
}

export function spanType(value: unknown): TSpanType {
  return typeof value === "string" && (SPAN_TYPES as readonly string[]).includes(value) ? (value as TSpanType) : "custom";
}

export const nonEmptyString = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

const ISO_RE = /^(\d{4})-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.(\d{1,9}))?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

export interface TParsedTime {
  /** What PostgreSQL is given: the SDK's text when it is strict ISO 8601 (keeps microseconds). */
  text: string;
  /** Microseconds since the epoch, for durations. */
  micros: number;
}

/** ISO timestamps with 3- or 6-digit fractions (docs/api/ingestion.md, "Span payload"); anything unusable is null. */
export function parseTimestamp(value: unknown): TParsedTime | null {
  if (typeof value !== "string" || value === "") return null;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return null;
  const iso = ISO_RE.exec(value);
  if (iso) {
    const year = Number(iso[1]);
    if (year < 1) return null;
    const fraction = (iso[2] ?? "").padEnd(6, "0").slice(0, 6);
    const micros = Math.floor(ms / 1000) * 1_000_000 + Number(fraction);
    return { text: value, micros };
  }
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  return { text: date.toISOString(), micros: ms * 1000 };
}

const MAX_INT4 = 2_147_483_647;

export function durationMs(start: TParsedTime | null, end: TParsedTime | null): number | null {
  if (!start || !end) return null;
  const ms = Math.round((end.micros - start.micros) / 1000);
  return ms >= 0 && ms <= MAX_INT4 ? ms : null;
}

function count(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) return null;
  return Math.min(Math.round(n), MAX_INT4);
}

export interface TTokensAndModel {
  input: number | null;
  output: number | null;
  cached: number | null;
  total: number | null;
  /** A part of output (docs/cost.md). */
  reasoning: number | null;
  model: string | null;
}

const add = (a: number | null, b: number | null) => (b === null ? a : Math.min((a ?? 0) + b, MAX_INT4));

/**
 * Tokens and model from `span_data.contexts` (docs/api/ingestion.md, "Span payload"): inputTokens, outputTokens,
 * cached from cacheReadTokens/cachedTokens, totalTokens or input + output, reasoningTokens, model. Several context objects add up; the
 * first model wins. Null where no context says anything.
 */
export function tokensAndModel(contexts: unknown): TTokensAndModel {
  const result: TTokensAndModel = { input: null, output: null, cached: null, total: null, reasoning: null, model: null };
  if (!Array.isArray(contexts)) return result;
  for (const context of contexts) {
    if (!context || typeof context !== "object" || Array.isArray(context)) continue;
    const c = context as Record<string, unknown>;
    const input = count(c.inputTokens);
    const output = count(c.outputTokens);
    result.input = add(result.input, input);
    result.output = add(result.output, output);
    result.cached = add(result.cached, count(c.cacheReadTokens) ?? count(c.cachedTokens));
    const total = count(c.totalTokens) ?? (input === null && output === null ? null : (input ?? 0) + (output ?? 0));
    result.total = add(result.total, total);
    result.reasoning = add(result.reasoning, count(c.reasoningTokens));
    if (result.model === null) result.model = nonEmptyString(c.model);
  }
  return result;
}

/** The span's error text: `span_data.error`, else OpenAI's `rawSpan.error` object (its message). */
export function spanError(spanDataError: unknown, rawSpanError: unknown): string | null {
  for (const e of [spanDataError, rawSpanError]) {
    if (e === undefined || e === null || e === "" || e === false) continue;
    if (typeof e === "string") return e;
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && message !== "") return message;
    return safeJson(e) ?? "error";
  }
  return null;
}

function safeJson(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}
