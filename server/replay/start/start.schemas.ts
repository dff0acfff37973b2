// POST /api/sdk/replay/start (docs/api/replay.md, "POST /api/sdk/replay/start").
//. Fields SDKs send that Reprise does not act on (experimentGroupId, dbBranchSettings,
// experimentalSelectiveReplay, invocation, lazyDbBranchLease) are accepted and ignored.
import { z } from "zod";
import { ZTokens } from "../../traces/traces.schemas.ts";
import { ZJsonObject, ZUuid, zText } from "../../shared/schemas.ts";

const zId = z.string().min(1).max(1000);

const ZCodeChangeFile = z.object({
  path: z.string().max(10_000),
  before: z.string().nullish(),
  after: z.string().nullish(),
});

export const ZStartBody = z.object({
  traceFunctionKey: zText(1000).min(1),
  name: zText(10_000).nullish(),
  notes: zText(100_000).nullish(),
  limit: z.number().int().min(1).max(5000).nullish(),
  traceIds: z.array(zId).max(100).nullish(),
  datasetId: zId.nullish(),
  datasetIds: z.array(zId).max(50).nullish(),
  graderIds: z.array(zId).max(100).nullish(),
  attempts: z.number().int().min(1).max(100).nullish(),
  judgeAssertions: z.boolean().nullish(),
  onlyWithAssertions: z.boolean().nullish(),
  dryRun: z.boolean().nullish(),
  includeDbBranchLease: z.boolean().nullish(),
  includeOriginalMetadata: z.boolean().nullish(),
  metadata: ZJsonObject.nullish(),
  codeChangeDescription: zText(100_000).nullish(),
  codeChangeFiles: z.array(ZCodeChangeFile).max(10_000).nullish(),
  git: ZJsonObject.nullish(),
  /** A group the client made the id of (docs/api/replay.md, "Experiments and groups"); created when new. */
  experimentGroupId: ZUuid.nullish(),
});
export type TStartBody = z.output<typeof ZStartBody>;

export const ZLeaseError = z.object({ code: z.string(), message: z.string() });

/** One item per original trace; SDKs expand attempts themselves (docs/replay.md, "Start: what gets replayed"). */
export const ZReplayItem = z.object({
  externalSpanId: z.string().nullable(),
  originalSpanId: z.string().nullable(),
  sourceSpanId: z.string().nullable(),
  originalTraceId: z.string(),
  sourceTraceId: z.string(),
  originalDurationMs: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  originalTokens: ZTokens,
  tokens: ZTokens,
  originalModel: z.string().nullable(),
  model: z.string().nullable(),
  ingestionType: z.string().nullable(),
  /**
   * False when the original was trimmed (payload_budget) or not captured exactly (serialization_degraded):
   * selection by `limit` never picks such a trace; one named by `traceIds` or a dataset is replayed, and
   * `unfaithfulReason` says why the replay may not reproduce it.
   */
  faithful: z.boolean(),
  unfaithfulReason: z.string().optional(),
  dbSnapshotRef: z.null(),
  dbBranchLeaseError: ZLeaseError.optional(),
  originalMetadata: z.record(z.string(), z.unknown()).optional(),
});
export type TReplayItem = z.output<typeof ZReplayItem>;

export const ZStartResponse = z.object({
  testRunId: z.string().nullable(),
  testRunUrl: z.string().nullable(),
  experimentId: z.string().nullable(),
  experimentUrl: z.string().nullable(),
  attempts: z.number().int(),
  dryRun: z.boolean(),
  items: z.array(ZReplayItem),
});
export type TStartResponse = z.output<typeof ZStartResponse>;
