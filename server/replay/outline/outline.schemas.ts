// Trace outlines (docs/replay.md, "Complete"): the span tree without inputs or outputs.
import { z } from "zod";
import { ZTokens } from "../../traces/traces.schemas.ts";

export const ZSpanError = z.object({ source: z.string(), error: z.string(), step: z.string().optional() });
export type TSpanError = z.output<typeof ZSpanError>;

export interface TOutlineSpan {
  spanId: string;
  name: string;
  type: string;
  traceFunctionKey: string | null;
  durationMs: number | null;
  tokens: z.output<typeof ZTokens>;
  model: string | null;
  errors: TSpanError[] | null;
  mocked: boolean;
  children: TOutlineSpan[];
}

export const ZOutlineSpan: z.ZodType<TOutlineSpan> = z.lazy(() =>
  z.object({
    spanId: z.string(),
    name: z.string(),
    type: z.string(),
    traceFunctionKey: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    tokens: ZTokens,
    model: z.string().nullable(),
    errors: z.array(ZSpanError).nullable(),
    mocked: z.boolean(),
    children: z.array(ZOutlineSpan),
  }),
);

export const ZTraceOutline = z.object({
  traceId: z.string(),
  name: z.string().nullable(),
  status: z.string(),
  traceFunctionKey: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  spanCount: z.number().int(),
  spans: z.array(ZOutlineSpan),
});
export type TTraceOutline = z.output<typeof ZTraceOutline>;

