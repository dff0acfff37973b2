// POST /api/sdk/replay/status (docs/api/replay.md).
import { z } from "zod";
import { ZUuid } from "../../shared/schemas.ts";
import { runId, runIdentityChecks, ZExperimentStatus } from "../experiments/experiments.schemas.ts";

export const ZStatusBody = z
  .object({
    testRunId: ZUuid.nullish(),
    experimentId: ZUuid.nullish(),
    /** {localTraceId: spans the SDK submitted} (docs/replay.md, "Status: the persistence barrier"). */
    expectedSpanCounts: z.record(z.string().max(1000), z.number().int().min(0).max(10_000_000)).nullish(),
  })
  .refine(...runIdentityChecks[0])
  .refine(...runIdentityChecks[1])
  .transform((b) => ({ experimentId: runId(b), expectedSpanCounts: b.expectedSpanCounts ?? undefined }));
export type TStatusBody = z.output<typeof ZStatusBody>;

export const ZStatusResponse = z.object({
  traceIds: z.record(z.string(), z.string()),
  status: ZExperimentStatus,
  traceCount: z.number().int(),
});
export type TStatusResponse = z.output<typeof ZStatusResponse>;

