// Field schemas several features share: ids, bounded text, JSON objects, query-string integers, instants.
import { z } from "zod";

// Canonical ids are UUIDs of any version (UUIDv5 for derived ids), so the looser shape of ids.ts.
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ZUuid = z
  .string()
  .regex(UUID_RE, "must be a UUID")
  .transform((s) => s.toLowerCase());

/** Text that PostgreSQL can store: it refuses NUL in text columns, so NUL is a 400, never a 500. */
export const zText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters");

/**
 * A JSON object, kept as parsed: zod's record() rebuilds objects by assignment and would turn a
 * `__proto__` key into a prototype change; this keeps it an ordinary key.
 */
export const ZJsonObject = z.custom<Record<string, unknown>>(
  (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  "must be a JSON object",
);

/** Positive integer query parameter within [min, max]. */
export const zQueryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/**
 * Query-string integer in [min, max]; anything else (empty, "abc", 0, 101) is a 400 (docs/api.md, "Common rules":
 * Limits).
 */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** An ISO 8601 date-time with a time zone (`Z` or an offset). */
export const ZInstant = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time with a time zone" }).transform((s) => new Date(s));
