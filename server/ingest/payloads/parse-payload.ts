// Text or value → validated ingest item, the same for REST bodies and OTLP carriers
// (docs/architecture.md, "Ingestion and completion": every door validates with the same zod schemas). Never throws: failures become a TRejection.
import type { z } from "zod";
import { toValidationIssues } from "../../errors.ts";
import type { TIngestItem, TIngestOperation, TRejection } from "../ingest.schemas.ts";
import { ZFunctionTracePayload, ZInternalTracePayload } from "./function-trace.schemas.ts";
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "./json-depth.ts";
import { isPlainJson } from "./plain-json.ts";
import { mayNeedSanitizing, sanitizeJsonValue, sanitizeNote, type SanitizeCounts } from "./sanitize.ts";
import { ZExternalSpanPayload } from "./span-payload.schemas.ts";
import { ZExternalTracePayload } from "./trace-payload.schemas.ts";

export type TParseOutcome = { ok: true; item: TIngestItem } | { ok: false; rejection: TRejection };

export function isIngestOperation(value: string): value is TIngestOperation {
  return value === "external_span" || value === "external_trace" || value === "internal_trace";
}

/** Parses JSON text; `functionId` comes from the URL on the REST door of internal traces. */
export function parsePayloadText(operation: TIngestOperation, text: string, functionId?: string): TParseOutcome {
  if (exceedsJsonDepth(text)) {
    return { ok: false, rejection: { code: "unstorable", message: `payload cannot be stored: JSON nested deeper than ${MAX_JSON_DEPTH} levels` } };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, rejection: { code: "invalid_json", message: `payload is not valid JSON: ${(error as Error).message}` } };
  }
  const counts: SanitizeCounts = { nul: 0, surrogates: 0 };
  if (mayNeedSanitizing(text)) value = sanitizeJsonValue(value, counts);
  const outcome = validate(operation, value, counts, functionId);
  const untouched = counts.nul === 0 && counts.surrogates === 0;
  if (outcome.ok && outcome.item.operation === "external_span" && untouched) outcome.item.text = text;
  return outcome;
}

/**
 * Validates a payload the server built from a decoded request (the native door's spans) as parsePayloadText
 * validates its JSON text, without the text: a plain value is validated as it is; anything else (text to
 * sanitize, deep nesting, values JSON has no form for) goes through its JSON text, with the same outcome.
 */
export function parsePayloadValue(operation: TIngestOperation, value: Record<string, unknown>): TParseOutcome {
  if (!isPlainJson(value)) return parsePayloadText(operation, JSON.stringify(value));
  return validate(operation, value, { nul: 0, surrogates: 0 });
}

function validate(operation: TIngestOperation, value: unknown, counts: SanitizeCounts, functionId?: string): TParseOutcome {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, rejection: { code: "validation_failed", message: "payload must be a JSON object" } };
  }
  const raw = value as Record<string, unknown>;
  const note = sanitizeNote(counts);
  const notes = note ? [note] : [];
  if (operation === "external_span") {
    const r = check(ZExternalSpanPayload, raw);
    return r.ok ? { ok: true, item: { operation, raw, payload: r.data, notes } } : r;
  }
  if (operation === "external_trace") {
    const r = check(ZExternalTracePayload, raw);
    return r.ok ? { ok: true, item: { operation, raw, payload: r.data, notes } } : r;
  }
  if (functionId !== undefined) {
    const r = check(ZFunctionTracePayload, raw);
    return r.ok ? { ok: true, item: { operation, raw, payload: r.data, functionId, notes } } : r;
  }
  const r = check(ZInternalTracePayload, raw);
  return r.ok ? { ok: true, item: { operation, raw, payload: r.data, functionId: r.data.functionId, notes } } : r;
}

function check<T>(schema: z.ZodType<T>, raw: unknown): { ok: true; data: T } | { ok: false; rejection: TRejection } {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, data: result.data };
  const issues = toValidationIssues(result.error.issues);
  const summary = issues
    .slice(0, 3)
    .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
    .join("; ");
  return { ok: false, rejection: { code: "validation_failed", message: `invalid payload: ${summary}`, issues } };
}
