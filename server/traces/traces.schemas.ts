// Wire contracts of the trace reads and the detached trace update (decisions.md "Reads we add";
// http-interface.md "PATCH /api/sdk/traces/{traceId}"; wire-facts §11.3).
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

export const ZTraceIdParams = z.object({ traceId: ZUuid });

export const ZTraceStatus = z.enum(["pending", "completed", "failed"]);

/** The trace's current whole-trace verdict: none, pass, fail, or validated (approved: a human's, or an approved agent's). */
export const ZTraceLabelState = z.enum(["unlabeled", "pass", "fail", "validated"]);
/** captured / seeded (ingestion_type of a non-replay trace), or replay (produced by an experiment: test_run_id set). */
export const ZTraceKind = z.enum(["captured", "seeded", "replay"]);
/** An ISO 8601 date-time with a time zone (`Z` or an offset). */
export const ZInstant = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time with a time zone" }).transform((s) => new Date(s));

export const ZTraceListQuery = z.object({
  traceFunctionKey: zText(1000).optional(),
  status: ZTraceStatus.optional(),
  search: zText(1000).optional(),
  labelState: ZTraceLabelState.optional(),
  kind: ZTraceKind.optional(),
  /** Inclusive lower bound of startedAt. */
  startedFrom: ZInstant.optional(),
  /** Exclusive upper bound of startedAt. */
  startedTo: ZInstant.optional(),
  cursor: z.string().max(512).optional(),
  limit: zQueryInt(1, 100).default(50),
});
export type TTraceListQuery = z.output<typeof ZTraceListQuery>;

export const ZTracePatch = z
  .object({
    appendContexts: z.array(ZJsonObject).max(1000).optional(),
    mergeMetadata: ZJsonObject.optional(),
    setSessionId: zText(10_000).nullable().optional(),
    setName: zText(10_000).nullable().optional(),
  })
  .refine(
    (p) => p.appendContexts !== undefined || p.mergeMetadata !== undefined || p.setSessionId !== undefined || p.setName !== undefined,
    { message: "send at least one of appendContexts, mergeMetadata, setSessionId, setName" },
  );
export type TTracePatch = z.output<typeof ZTracePatch>;

export const ZTokens = z
  .object({ input: z.number().int(), output: z.number().int(), cached: z.number().int(), total: z.number().int() })
  .nullable();
export type TTokens = z.output<typeof ZTokens>;

const ZTimestamp = z.string().nullable();

export const ZTrace = z.object({
  id: z.string(),
  name: z.string().nullable(),
  traceFunctionKey: z.string().nullable(),
  status: z.string(),
  ingestionType: z.string(),
  sessionId: z.string().nullable(),
  metadata: ZJsonObject,
  contexts: z.array(z.unknown()),
  startedAt: ZTimestamp,
  endedAt: ZTimestamp,
  expectedSpanCount: z.number().int().nullable(),
  completedAt: ZTimestamp,
  dropped: z.boolean(),
  spanCount: z.number().int(),
  durationMs: z.number().int().nullable(),
  tokens: ZTokens,
  model: z.string().nullable(),
  testRunId: z.string().nullable(),
  originalTraceId: z.string().nullable(),
});
export type TTrace = z.output<typeof ZTrace>;

export const ZTraceResponse = z.object({ trace: ZTrace });
export const ZTraceListResponse = z.object({
  traces: z.array(ZTrace),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
});
export type TTraceList = z.output<typeof ZTraceListResponse>;
