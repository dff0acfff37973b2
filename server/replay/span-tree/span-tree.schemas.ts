// GET /api/sdk/replay/spanTree/{externalSpanId} (docs/api/replay.md).
import { z } from "zod";

/** "true"/"false" (also "1"/"0"); absent means true, as TS 0.12 sends no query and wants outputs inline. */
const zQueryFlag = z
  .enum(["true", "false", "1", "0"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1")
  .default(true);

export const ZSpanTreeQuery = z.object({ includeOutputs: zQueryFlag, includeRootOutput: zQueryFlag });
export type TSpanTreeQuery = z.output<typeof ZSpanTreeQuery>;

export const ZSpanTreeParams = z.object({ externalSpanId: z.string().min(1).max(1000) });

export interface TSpanTreeNode {
  /** The SDK's id of the original span: SDKs match replayed calls against it. */
  sourceSpanId: string;
  /** Canonical span id, usable with GET /api/sdk/externalSpans/{id}. */
  externalSpanId: string;
  traceFunctionKey: string | null;
  spanName: string;
  type: string;
  output?: unknown;
  outputMeta?: unknown;
  /** The Python SDK's `{json, meta}` of the output (`span_data.output_serialized`), when it recorded one. */
  outputSerialized?: unknown;
  children: TSpanTreeNode[];
}

export const ZSpanTreeNode: z.ZodType<TSpanTreeNode> = z.lazy(() =>
  z.object({
    sourceSpanId: z.string(),
    externalSpanId: z.string(),
    traceFunctionKey: z.string().nullable(),
    spanName: z.string(),
    type: z.string(),
    output: z.unknown().optional(),
    outputMeta: z.unknown().optional(),
    outputSerialized: z.unknown().optional(),
    children: z.array(ZSpanTreeNode),
  }),
);

export const ZSpanTreeResponse = z.object({ root: ZSpanTreeNode });
