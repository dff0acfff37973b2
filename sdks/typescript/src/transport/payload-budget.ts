import { unserializable } from "../encoding/sanitize.js";
import type { Operation } from "./types.js";

/**
 * Per-span carrier budget when the single-span request compresses under the wire target (docs/sdk-transport.md, rule
 * 7).
 */
export const PER_SPAN_BUDGET = 7_800_000;
/** Fallback trim budget of an oversized carrier (docs/sdk-transport.md, rule 7). */
export const FALLBACK_BUDGET = 2_800_000;

/** Keys that identify a span or trace and are never trimmed (docs/sdk-transport.md, rule 6). */
const STRUCTURAL = new Set([
  "name", "type", "function_name", "error_source", "content_off_by_simulation_plan",
  "id", "started_at", "ended_at", "workflow_name", "ingestion_type", "input_source_trace_id", "replay_attempt",
]);
/** A trimmed value's superjson meta no longer describes anything and is dropped with it. */
const META_OF: Record<string, string> = { input: "input_meta", output: "output_meta" };

/** Size of a payload once re-escaped into the carrier's string attribute (docs/sdk-transport.md, rule 7). */
export function escapedBytes(json: string): number {
  return Buffer.byteLength(JSON.stringify(json), "utf8") - 2;
}

/** What trimming did. */
export interface TrimResult {
  payload: Record<string, unknown>;
  trimmed: Array<{ path: string; bytes: number }>;
  /** Escaped carrier size after trimming. */
  escapedBytes: number;
}

interface Candidate {
  container: Record<string, unknown>;
  key: string;
  path: string;
  escaped: number;
  raw: number;
}

/**
 * Replaces the largest non-structural fields with `<unserializable: too_large_N_bytes>`, largest first, until the
 * escaped payload fits `budget`, and records the trim in `errors` under step `payload_budget` (docs/sdk-transport.md,
 * rule 6). The payload is modified in place and returned.
 */
export function trimPayload(payload: Record<string, unknown>, operation: Operation, budget: number): TrimResult {
  let total = escapedBytes(JSON.stringify(payload));
  const trimmed: TrimResult["trimmed"] = [];
  const candidates = collectCandidates(payload, operation).sort((a, b) => b.escaped - a.escaped);
  for (const candidate of candidates) {
    if (total <= budget) break;
    if (!(candidate.key in candidate.container)) continue; // already removed as a companion meta
    const placeholder = unserializable(`too_large_${candidate.raw}_bytes`);
    candidate.container[candidate.key] = placeholder;
    total -= candidate.escaped - escapedBytes(JSON.stringify(placeholder));
    total -= dropCompanionMeta(candidate);
    trimmed.push({ path: candidate.path, bytes: candidate.raw });
  }
  if (trimmed.length > 0) {
    const errors = Array.isArray(payload.errors) ? payload.errors : [];
    errors.push({
      source: "sdk",
      step: "payload_budget",
      error: `trimmed oversized field(s) to fit the ${budget}-byte carrier budget: ${trimmed
        .map((t) => `${t.path} (${t.bytes} bytes)`)
        .join(", ")}`,
    });
    payload.errors = errors;
    total = escapedBytes(JSON.stringify(payload));
  }
  return { payload, trimmed, escapedBytes: total };
}

function collectCandidates(payload: Record<string, unknown>, operation: Operation): Candidate[] {
  const containers: Array<[Record<string, unknown> | undefined, string]> =
    operation === "external_span"
      ? [[asRecord(asRecord(payload.rawSpan)?.span_data), "rawSpan.span_data"]]
      : operation === "external_trace"
        ? [[asRecord(payload.externalTrace), "externalTrace"]]
        : [[payload, ""]];
  const out: Candidate[] = [];
  for (const [container, prefix] of containers) {
    if (!container) continue;
    for (const [key, value] of Object.entries(container)) {
      if (STRUCTURAL.has(key) || value === undefined) continue;
      if (operation === "internal_trace" && !["result", "inputs", "rawCollector"].includes(key)) continue;
      const json = JSON.stringify(value);
      out.push({
        container,
        key,
        path: prefix ? `${prefix}.${key}` : key,
        escaped: escapedBytes(json),
        raw: Buffer.byteLength(json, "utf8"),
      });
    }
  }
  return out;
}

function dropCompanionMeta(candidate: Candidate): number {
  const metaKey = META_OF[candidate.key];
  if (metaKey === undefined || !(metaKey in candidate.container)) return 0;
  const saved = escapedBytes(JSON.stringify(candidate.container[metaKey]) ?? "") + escapedBytes(`,"${metaKey}":`);
  delete candidate.container[metaKey];
  return saved;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
