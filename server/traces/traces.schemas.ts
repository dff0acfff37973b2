// Wire contracts of the trace reads and the detached trace update (docs/api/traces.md).
//.
import { z } from "zod";
import { ZInstant, ZJsonObject, ZUuid, zQueryInt, zText } from "../shared/schemas.ts";

export const ZTraceIdParams = z.object({ traceId: ZUuid });

export const ZTraceStatus = z.enum(["pending", "completed", "failed"]);

/** The trace's current whole-trace verdict: none, pass, fail, or validated (approved: a human's, or an approved agent's). */
export const ZTraceLabelState = z.enum(["unlabeled", "pass", "fail", "validated"]);
/** captured / seeded (ingestion_type of a non-replay trace), or replay (produced by an experiment: test_run_id set). */
export const ZTraceKind = z.enum(["captured", "seeded", "replay"]);

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
  /** Traces with a span of exactly this model (the dashboard's model bars; docs/api/traces.md, "GET /api/sdk/traces"). */
  model: zText(400).optional(),
  /**
   * Traces this grader labelled (with graderLabel: only passes, only failures, or only the ones it scored; with
   * graderCategory: only that category). The dashboard's grader points and score points open these.
   */
  graderId: ZUuid.optional(),
  graderLabel: z.enum(["pass", "fail", "scored"]).optional(),
  graderCategory: zText(100).optional(),
  /** With labelState pass or fail: only verdicts of this source. */
  verdictSource: z.enum(["human", "agent", "judge"]).optional(),
  /** Traces of one experiment (replay traces). */
  testRunId: ZUuid.optional(),
  /** Traces that cost at least this many USD (docs/cost.md). */
  minCostUsd: z.coerce.number().finite().min(0).optional(),
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
  /**
   * False when a span was trimmed to fit the SDK's budget (payload_budget) or not captured exactly
   * (serialization_degraded): the trace is not a faithful recording, and replay by limit skips it.
   */
  faithful: z.boolean(),
  /** The capture-note steps that made the trace unfaithful (empty when faithful). */
  captureIssues: z.array(z.string()),
  testRunId: z.string().nullable(),
  originalTraceId: z.string().nullable(),
  /** Where the trace came from: the SDK's source name, or "otel" for the native OpenTelemetry door (docs/otel.md). */
  source: z.string().nullable(),
  /** Native OpenTelemetry traces: when a span first arrived after completion (graders re-ran once). */
  amendedAt: ZTimestamp,
  /** USD: the sum of its final spans' costs; null while none had a price (docs/cost.md). */
  costUsd: z.number().nullable(),
});
export type TTrace = z.output<typeof ZTrace>;

export const ZTraceResponse = z.object({ trace: ZTrace });
export const ZTraceListResponse = z.object({
  traces: z.array(ZTrace),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
});
export type TTraceList = z.output<typeof ZTraceListResponse>;
