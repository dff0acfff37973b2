import { expect } from "vitest";
import type { Carrier, RecordedRequest } from "../recorder/types.ts";
import { API_KEY } from "./constants.ts";
import type { Ctx } from "./harness.ts";

/** Wire target, decompressed ceiling and gzip threshold (docs/sdk-transport.md, "Limits"). */
export const WIRE_TARGET = 3_000_000;
export const DECOMPRESSED_CEILING = 8_000_000;
export const GZIP_THRESHOLD = 8_192;

/** `span_data` of a span carrier. */
export function spanData(carrier: Carrier): Record<string, any> {
  return carrier.payload.rawSpan?.span_data ?? {};
}

/** The span carrier of a trace named `name` (the last copy when retried). */
export function spanNamed(ctx: Ctx, traceId: string, name: string): Carrier {
  const found = ctx.spans(traceId).filter((c) => spanData(c).name === name);
  expect(found.length, `a span carrier named "${name}" in trace ${traceId}`).toBeGreaterThan(0);
  return found[found.length - 1] as Carrier;
}

/** True when `needle` appears in `haystack` (equal, or inside an array or object at any depth). */
export function containsValue(haystack: unknown, needle: unknown): boolean {
  if (JSON.stringify(haystack) === JSON.stringify(needle)) return true;
  if (Array.isArray(haystack)) return haystack.some((v) => containsValue(v, needle));
  if (haystack !== null && typeof haystack === "object") return Object.values(haystack).some((v) => containsValue(v, needle));
  return false;
}

/** The OTLP requests (direct or Collector) that carried a carrier satisfying `predicate`. */
export function requestsWith(ctx: Ctx, predicate: (c: Carrier) => boolean): RecordedRequest[] {
  return ctx.recorder.requests.filter((r) => r.carriers.some(predicate));
}

/** Every OTLP request of the scenario. */
export function otlpRequests(ctx: Ctx): RecordedRequest[] {
  return ctx.recorder.requests.filter((r) => r.route === "otlp" || r.route === "collector");
}

/**
 * Rules every OTLP request obeys, whatever the scenario: authenticated, decodable, gzipped exactly when it is at
 * least 8,192 bytes and gzip made it smaller, at most 3,000,000 bytes on the wire and 8,000,000 decompressed.
 */
export function checkRequestInvariants(ctx: Ctx, options: { compression?: boolean } = {}): void {
  for (const request of otlpRequests(ctx)) {
    const where = `OTLP request #${request.seq} (${request.body.length} bytes decompressed, ${request.raw.length} on the wire)`;
    expect(request.headers.authorization, `${where}: Authorization`).toBe(`Bearer ${API_KEY}`);
    expect(request.decodeError, `${where}: decodes`).toBeUndefined();
    expect(request.raw.length, `${where}: within the 3,000,000-byte wire target`).toBeLessThanOrEqual(WIRE_TARGET);
    expect(request.body.length, `${where}: within the 8,000,000-byte decompressed ceiling`).toBeLessThanOrEqual(DECOMPRESSED_CEILING);
    const gzipped = request.headers["content-encoding"] === "gzip";
    if (gzipped) {
      expect(request.body.length, `${where}: gzipped only from 8,192 bytes`).toBeGreaterThanOrEqual(GZIP_THRESHOLD);
      expect(request.raw.length, `${where}: gzipped only when smaller`).toBeLessThan(request.body.length);
    } else if (options.compression !== false && request.body.length >= GZIP_THRESHOLD) {
      // Carrier JSON always compresses, so a large request sent uncompressed broke "gzip when smaller".
      expect(gzipped, `${where}: a request of 8,192 bytes or more that gzip makes smaller is gzipped`).toBe(true);
    }
  }
}

/** A string of printable characters (no `"` or `\`) that deflate cannot shrink much: no repeats within 32 KB. */
export function incompressibleChunk(length: number, seed = 1): string {
  let state = seed >>> 0 || 1;
  let out = "";
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    let code = 35 + ((state >>> 8) % 90); // '#'..'|', skipping nothing that needs escaping except '\\'
    if (code === 92) code = 93;
    out += String.fromCharCode(code);
  }
  return out;
}

/** `{"$repeat": s, "count": n}` (PROTOCOL.md, Values). */
export function repeat(s: string, count: number): { $repeat: string; count: number } {
  return { $repeat: s, count };
}

/** Errors entries of a payload under step `payload_budget`. */
export function budgetErrors(carrier: Carrier): unknown[] {
  return (Array.isArray(carrier.payload.errors) ? carrier.payload.errors : []).filter((e: any) => e?.step === "payload_budget");
}

/** True when a value is the trimming placeholder `<unserializable: too_large_N_bytes>`. */
export function isPlaceholder(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes("<unserializable: too_large_");
}
