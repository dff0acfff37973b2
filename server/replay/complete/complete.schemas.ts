// POST /api/sdk/replay/complete (docs/api/replay.md).
import { z } from "zod";
import { ZUuid } from "../../shared/schemas.ts";
import { ZTokens } from "../../traces/traces.schemas.ts";
import { runId, runIdentityChecks, ZExperimentStatus } from "../experiments/experiments.schemas.ts";
import { ZTraceOutline } from "../outline/outline.schemas.ts";

export const ZCompleteBody = z
  .object({ testRunId: ZUuid.nullish(), experimentId: ZUuid.nullish() })
  .refine(...runIdentityChecks[0])
  .refine(...runIdentityChecks[1])
  .transform((b) => ({ experimentId: runId(b) }));
export type TCompleteBody = z.output<typeof ZCompleteBody>;

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
