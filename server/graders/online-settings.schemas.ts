// Online evaluation settings of a grader (docs/graders.md, "Online evaluation"): what share of its trace
// function's traces live grading and backfills grade (sampleRate, a percentage to 0.01 %), and which
// (filter). Kept in the grader's config as `online`, so they are versioned, described and undone like the
// rest of a grader; absent means every completed trace, as before.
import { z } from "zod";

const ZMetadataValue = z.union([z.string().max(1_000), z.number().finite(), z.boolean()]);

export const ZOnlineFilter = z
  .object({
    /** Top-level metadata keys and the values they must hold (all of them). */
    metadata: z
      .record(z.string().min(1, "metadata keys may not be empty").max(200), ZMetadataValue)
      .refine((m) => Object.keys(m).length <= 20, "at most 20 metadata keys")
      .optional(),
    /** Tags the trace must carry, all of them: strings of its metadata's `tags` array. */
    tags: z.array(z.string().trim().min(1, "tags may not be empty").max(200)).min(1, "send at least one tag, or leave tags out").max(20).optional(),
    /** A model one of its spans used, exactly (the trace list's model filter, docs/api/traces.md). */
    model: z.string().trim().min(1, "model may not be empty").max(400).optional(),
    /** completed or failed: the statuses a trace is graded in. */
    status: z.enum(["completed", "failed"]).optional(),
  })
  .strict();
export type TOnlineFilter = z.infer<typeof ZOnlineFilter>;

export const ZOnlineSettings = z
  .object({
    sampleRate: z
      .number()
      .min(0, "sampleRate is a percentage from 0 to 100")
      .max(100, "sampleRate is a percentage from 0 to 100")
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, "sampleRate has at most two decimals (0.01 %)")
      .default(100),
    filter: ZOnlineFilter.optional(),
  })
  .strict();
export type TOnlineSettings = z.infer<typeof ZOnlineSettings>;

/** Sampling buckets: a trace is sampled when its bucket is below sampleRate × 100. */
export const SAMPLE_BUCKETS = 10_000;
