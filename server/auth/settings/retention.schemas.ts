// The organization's retention period (docs/operations.md, "Retention"): whole days, at least one; null keeps
// traces forever (the default). Zero, a negative or a fractional number is a 400.
import { z } from "zod";

export const MAX_RETENTION_DAYS = 36_500;

export const ZRetentionDays = z.number().int("must be a whole number of days").min(1, "must be at least 1 day").max(MAX_RETENTION_DAYS).nullable();

export const ZSetRetentionBody = z.object({ retentionDays: ZRetentionDays }).strict();
export type TSetRetentionBody = z.output<typeof ZSetRetentionBody>;

export const ZRetentionChange = z.object({
  previousDays: z.number().int().nullable(),
  retentionDays: z.number().int().nullable(),
  changedByUserId: z.string().nullable(),
  changedVia: z.string(),
  changedAt: z.string(),
});

export const ZRetentionResponse = z.object({
  /** Null: traces are kept forever. */
  retentionDays: z.number().int().nullable(),
  /** The latest changes, newest first: each says what the period was before, so a change can be undone. */
  changes: z.array(ZRetentionChange),
});
export type TRetentionResponse = z.output<typeof ZRetentionResponse>;

/** The admin CLI's --days: a whole number of days, or "forever". */
export const ZRetentionDaysFlag = z.union([z.literal("forever"), z.string().regex(/^\d+$/, "must be a whole number of days or forever")]);
