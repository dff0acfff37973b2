// Wire contracts of cost (docs/api/cost.md): the model price table, its versions, the spans no price matched
// and recomputation.
import { z } from "zod";
import { ZInstant, ZUuid, zQueryInt, zText } from "../../shared/schemas.ts";

const ZPerMtok = z.number().finite().min(0).max(1_000_000);
const ZDay = z.iso.date({ message: "must be a date, YYYY-MM-DD" });

/** A price to save: a new one, or (with `id`) the next version of one of the organization's prices. */
export const ZPriceSave = z.object({
  id: ZUuid.optional(),
  /** A model name (its dated versions match too: gpt-4o matches gpt-4o-2024-08-06) or a glob with `*`. */
  modelPattern: zText(200).trim().min(1),
  provider: zText(100).trim().min(1).nullable().default(null),
  inputPerMtok: ZPerMtok,
  outputPerMtok: ZPerMtok,
  cachedInputPerMtok: ZPerMtok.nullable().default(null),
  reasoningPerMtok: ZPerMtok.nullable().default(null),
  effectiveFrom: ZDay.default("1970-01-01"),
});
export type TPriceSave = z.output<typeof ZPriceSave>;

export const ZPriceIdParams = z.object({ id: ZUuid });
export const ZPriceRestore = z.object({ version: z.number().int().min(1) });

export const ZPriceEntry = z.object({
  id: z.string(),
  source: z.enum(["default", "organization"]),
  provider: z.string().nullable(),
  modelPattern: z.string(),
  inputPerMtok: z.number(),
  outputPerMtok: z.number(),
  cachedInputPerMtok: z.number().nullable(),
  reasoningPerMtok: z.number().nullable(),
  effectiveFrom: z.string(),
  /** Organization prices: the current version, who made it and when. */
  version: z.number().int().nullable(),
  changedAt: z.string().nullable(),
  changedByUserId: z.string().nullable(),
  /** Defaults: an organization price of the same pattern takes its place. */
  overridden: z.boolean(),
});
export type TPriceEntry = z.output<typeof ZPriceEntry>;

export const ZPriceTableResponse = z.object({ defaultsCompiledOn: z.string(), prices: z.array(ZPriceEntry) });
export const ZPriceResponse = z.object({ price: ZPriceEntry });

export const ZPriceVersion = ZPriceEntry.omit({ source: true, overridden: true }).extend({
  version: z.number().int(),
  deleted: z.boolean(),
  supersededAt: z.string().nullable(),
});
export const ZPriceVersionsResponse = z.object({ versions: z.array(ZPriceVersion) });

/** A time range: from inclusive, to exclusive; at most a year wide. */
export const ZRange = z
  .object({ from: ZInstant, to: ZInstant })
  .refine((r) => r.from < r.to, { message: "from must be before to", path: ["to"] })
  .refine((r) => r.to.getTime() - r.from.getTime() <= 366 * 86_400_000, { message: "the range is at most 366 days", path: ["to"] });

export const ZUnpricedQuery = z.object({
  from: ZInstant,
  to: ZInstant,
  model: zText(400).optional(),
  limit: zQueryInt(1, 500).default(100),
});

export const ZUnpricedResponse = z.object({
  models: z.array(z.object({ model: z.string(), spans: z.number(), traces: z.number(), firstSeen: z.string().nullable(), lastSeen: z.string().nullable(), matchesNow: z.boolean() })),
  spans: z.array(z.object({
    spanId: z.string(), traceId: z.string(), name: z.string(), model: z.string(),
    inputTokens: z.number().nullable(), outputTokens: z.number().nullable(), totalTokens: z.number().nullable(), startedAt: z.string().nullable(),
  })),
});

export const ZRecompute = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  status: z.enum(["queued", "running", "done", "failed"]),
  tracesTotal: z.number(),
  tracesDone: z.number(),
  spansPriced: z.number(),
  spansUnpriced: z.number(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TRecompute = z.output<typeof ZRecompute>;
export const ZRecomputeResponse = z.object({ recompute: ZRecompute });
export const ZRecomputeListResponse = z.object({ recomputes: z.array(ZRecompute) });
