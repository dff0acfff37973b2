// Backfill wire contracts (docs/api/graders.md, "Backfills"; docs/graders.md, "Online evaluation").
import { z } from "zod";
import { ZInstant } from "../../shared/schemas.ts";

export const ZBackfillParams = z.object({ id: z.uuid("must be a grader id (UUID)") });

const rangeFields = { from: ZInstant, to: ZInstant };

function checkRange(r: { from: unknown; to: unknown }, ctx: z.RefinementCtx): void {
  // Runs even when a field failed (zod reports every issue): then there is nothing to compare.
  if (!(r.from instanceof Date) || !(r.to instanceof Date)) return;
  if (r.from.getTime() >= r.to.getTime()) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
  else if (r.to.getTime() - r.from.getTime() > 366 * 86_400_000) ctx.addIssue({ code: "custom", path: ["to"], message: "the range may span at most 366 days" });
}

/** A past time range of trace start times: from inclusive, to exclusive, at most 366 days. */
export const ZBackfillRange = z.object(rangeFields).strict().superRefine(checkRange);
/** The console's input: the grader and the range. */
export const ZGraderBackfillRange = z.object({ graderId: z.uuid(), ...rangeFields }).strict().superRefine(checkRange);
export type TBackfillRange = z.output<typeof ZBackfillRange>;

export const ZBackfillRunQuery = z.object({ runId: z.uuid("must be a backfill id (UUID)").optional() });
export const ZCancelBackfillBody = z.object({ runId: z.uuid("must be a backfill id (UUID)") }).strict();

export const ZBackfillEstimate = z.object({
  graderId: z.string(),
  graderVersion: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** Traces the backfill would grade: in the range, completed or failed, sampled and filtered, not yet labelled at this version. */
  traces: z.number().int(),
  /** Traces in the range that pass the sample and filter but already hold a label of this grader version (left out). */
  alreadyGraded: z.number().int(),
  sampleRate: z.number(),
  /** For an LLM judge: the model, its expected tokens and their cost; null for a rule grader (no model calls). */
  judge: z
    .object({
      model: z.string(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      /** USD at the model's price; null when no price matches the model ("unpriced"). */
      costUsd: z.number().nullable(),
      priced: z.boolean(),
      priceId: z.string().nullable(),
    })
    .nullable(),
});
export type TBackfillEstimate = z.infer<typeof ZBackfillEstimate>;

export const ZBackfillStatus = z.enum(["pending", "running", "completed", "errored", "cancelled"]);

export const ZBackfill = z.object({
  id: z.string(),
  graderId: z.string(),
  graderVersion: z.number().int(),
  from: z.string(),
  to: z.string(),
  status: ZBackfillStatus,
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  /** Traces that got a verdict (completed runs): a trace deleted meanwhile is done but not graded. */
  tracesGraded: z.number().int().nullable(),
  estimate: ZBackfillEstimate,
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TBackfill = z.infer<typeof ZBackfill>;

export const ZEstimateResponse = z.object({ estimate: ZBackfillEstimate });
export const ZBackfillResponse = z.object({ backfill: ZBackfill });
export const ZBackfillOrNullResponse = z.object({ backfill: ZBackfill.nullable() });
