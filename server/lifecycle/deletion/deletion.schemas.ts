// Wire contracts of deleting traces, datasets, graders and assertions (docs/api.md, "Deleting data").
import { z } from "zod";
import { ZTraceListQuery } from "../../traces/traces.schemas.ts";
import { ZUuid, zText } from "../../shared/schemas.ts";

/** The trace list's filter, without its paging; an unknown key is a 400 (a typo must never widen a delete). */
export const ZTraceDeleteFilter = ZTraceListQuery.omit({ cursor: true, limit: true }).strict();
export type TTraceDeleteFilter = z.output<typeof ZTraceDeleteFilter>;

/** The most traces one filtered delete removes; more is a 400 asking for a narrower filter (or retention). */
export const MAX_FILTER_DELETE = 10_000;

/**
 * What to delete, exactly one of: trace ids; a filter of the trace list (first with `dryRun` for the count,
 * then with `confirmCount` equal to it); a session id; a user id in the metadata (under `metadataKey`).
 */
export const ZDeleteTracesBody = z
  .object({
    traceIds: z.array(ZUuid).min(1).max(1000).optional(),
    filter: ZTraceDeleteFilter.optional(),
    dryRun: z.boolean().optional(),
    confirmCount: z.number().int().min(0).optional(),
    sessionId: zText(10_000).min(1).optional(),
    userId: zText(10_000).min(1).optional(),
    metadataKey: zText(200).min(1).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    const chosen = [b.traceIds, b.filter, b.sessionId, b.userId].filter((v) => v !== undefined).length;
    if (chosen !== 1) ctx.addIssue({ code: "custom", message: "send exactly one of traceIds, filter, sessionId, userId" });
    if (b.filter !== undefined && !b.dryRun && b.confirmCount === undefined) {
      ctx.addIssue({ code: "custom", path: ["confirmCount"], message: "a filtered delete needs confirmCount: first send dryRun: true for the count" });
    }
    if ((b.dryRun !== undefined || b.confirmCount !== undefined) && b.filter === undefined) {
      ctx.addIssue({ code: "custom", message: "dryRun and confirmCount go with a filter" });
    }
    if (b.metadataKey !== undefined && b.userId === undefined) ctx.addIssue({ code: "custom", path: ["metadataKey"], message: "metadataKey goes with userId" });
  });
export type TDeleteTracesBody = z.output<typeof ZDeleteTracesBody>;

export const ZDeleteTracesResponse = z.object({
  /** True for a dry run: nothing was deleted, `count` traces match. */
  dryRun: z.boolean(),
  count: z.number().int(),
  deletedTraceIds: z.array(z.string()),
  /** Ids asked for that name no trace of the organization (by traceIds only). */
  notFoundTraceIds: z.array(z.string()),
});
export type TDeleteTracesResponse = z.output<typeof ZDeleteTracesResponse>;

export const ZIdParams = z.object({ id: ZUuid });
export const ZTraceIdParams = z.object({ traceId: ZUuid });

export const ZTombstoneKind = z.enum(["grader", "assertion"]);
export const ZTombstonesQuery = z.object({ kind: ZTombstoneKind.optional() }).strict();

export const ZTombstone = z.object({
  id: z.string(),
  kind: z.string(),
  itemId: z.string(),
  /** The grader's name or the assertion's text. */
  name: z.string(),
  deletedByUserId: z.string().nullable(),
  deletedVia: z.string(),
  deletedAt: z.string(),
  restoredAt: z.string().nullable(),
});
export const ZTombstoneResponse = z.object({ tombstone: ZTombstone });
export const ZTombstonesResponse = z.object({ tombstones: z.array(ZTombstone) });
export const ZDeleteTraceResponse = z.object({ deletedTraceId: z.string() });
export const ZDeleteDatasetResponse = z.object({ deletedDatasetId: z.string(), keptTraceCount: z.number().int() });
