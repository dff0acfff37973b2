// Wire contracts of the span reads: GET /traces/{traceId}/span ,
// GET /spans/{id} and GET /externalSpans/{id} (docs/api/traces.md).
import { z } from "zod";
import { ZTokens } from "../traces/traces.schemas.ts";
import { ZJsonObject, ZUuid, zText } from "../shared/schemas.ts";

export const ZSpanIdParams = z.object({ id: ZUuid });
export const ZTraceSpanParams = z.object({ traceId: ZUuid });

/** `first`, `last` or a 0-based index into the spans of that name, ordered by start time. */
export const ZOccurrence = z.union([
  z.enum(["first", "last"]),
  z
    .string()
    .regex(/^\d{1,9}$/, "must be first, last or a 0-based integer index")
    .transform(Number),
]);
export type TOccurrence = z.output<typeof ZOccurrence>;

export const ZSpanSelectorQuery = z
  .object({
    id: ZUuid.optional(),
    name: zText(10_000).min(1).optional(),
    occurrence: ZOccurrence.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.id !== undefined && q.name !== undefined) {
      ctx.addIssue({ code: "custom", path: ["id"], message: "use exactly one selector: id, or name (with optional occurrence), not both" });
    } else if (q.id === undefined && q.name === undefined) {
      ctx.addIssue({ code: "custom", path: ["name"], message: "use exactly one selector: id, or name (with optional occurrence)" });
    }
    if (q.occurrence !== undefined && q.name === undefined) {
      ctx.addIssue({ code: "custom", path: ["occurrence"], message: "occurrence is only allowed with name" });
    }
  });
export type TSpanSelector = { id: string } | { name: string; occurrence: TOccurrence };

export const ZExternalSpanQuery = z.object({ view: z.enum(["replay"]).optional() });

const ZCaptureNote = z.object({ source: z.string().optional(), error: z.unknown(), step: z.string().optional() }).passthrough();

export const ZSpan = z.object({
  id: z.string(),
  traceId: z.string(),
  parentSpanId: z.string().nullable(),
  name: z.string(),
  type: z.string(),
  input: z.unknown(),
  output: z.unknown(),
  contexts: z.array(z.unknown()),
  prompt: z.string().nullable(),
  metadata: ZJsonObject,
  metrics: z.object({ durationMs: z.number().int().nullable(), tokens: ZTokens, model: z.string().nullable(), costUsd: z.number().nullable() }),
  error: z.string().nullable(),
  errors: z.array(ZCaptureNote).nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type TSpan = z.output<typeof ZSpan>;

export const ZSpanResponse = z.object({ span: ZSpan.nullable() });

export const ZExternalSpanResponse = z.object({
  id: z.string(),
  externalTraceId: z.string(),
  rawData: ZJsonObject,
});
export type TExternalSpan = z.output<typeof ZExternalSpanResponse>;
