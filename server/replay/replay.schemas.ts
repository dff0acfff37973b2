// Wire contracts shared by the replay endpoints: the run identity (wire-facts §20.13: testRunId and
// experimentId are synonyms), trace outlines (http-interface.md "Trace outline"; wire-facts §9.7), and the
// status and complete bodies (http-interface.md "POST /api/sdk/replay/status", ".../complete").
import { z } from "zod";
import { ZTokens, ZUuid } from "../traces/traces.schemas.ts";

export { ZTokens };

type RunIds = { testRunId?: string | null; experimentId?: string | null };

const runIdentityChecks: [(b: RunIds) => boolean, { message: string; path?: string[] }][] = [
  [(b) => Boolean(b.testRunId ?? b.experimentId), { message: "send testRunId or experimentId" }],
  [
    (b) => !b.testRunId || !b.experimentId || b.testRunId === b.experimentId,
    { message: "testRunId and experimentId name different runs", path: ["experimentId"] },
  ],
];

/** The run the call is about: `testRunId` or `experimentId` (or both, equal). */
const runId = (b: RunIds) => (b.testRunId ?? b.experimentId) as string;

export const ZCompleteBody = z
  .object({ testRunId: ZUuid.nullish(), experimentId: ZUuid.nullish() })
  .refine(...runIdentityChecks[0])
  .refine(...runIdentityChecks[1])
  .transform((b) => ({ experimentId: runId(b) }));
export type TCompleteBody = z.output<typeof ZCompleteBody>;

export const ZStatusBody = z
  .object({
    testRunId: ZUuid.nullish(),
    experimentId: ZUuid.nullish(),
    /** {localTraceId: spans the SDK submitted}; wire-facts §9.6. */
    expectedSpanCounts: z.record(z.string().max(1000), z.number().int().min(0).max(10_000_000)).nullish(),
  })
  .refine(...runIdentityChecks[0])
  .refine(...runIdentityChecks[1])
  .transform((b) => ({ experimentId: runId(b), expectedSpanCounts: b.expectedSpanCounts ?? undefined }));
export type TStatusBody = z.output<typeof ZStatusBody>;

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

export const ZExperimentStatus = z.enum(["pending", "completed", "failed", "interrupted"]);

export const ZStatusResponse = z.object({
  traceIds: z.record(z.string(), z.string()),
  status: ZExperimentStatus,
  traceCount: z.number().int(),
});
export type TStatusResponse = z.output<typeof ZStatusResponse>;

export const ZCompleteResponse = z.object({
  testRunId: z.string(),
  experimentId: z.string(),
  status: ZExperimentStatus,
  traceIds: z.record(z.string(), z.string()),
  tokens: z.record(z.string(), ZTokens),
  traceCount: z.number().int(),
  traceOutlines: z.record(z.string(), ZTraceOutline),
  originalTraceOutlines: z.record(z.string(), ZTraceOutline),
});
export type TCompleteResponse = z.output<typeof ZCompleteResponse>;
