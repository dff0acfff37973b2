// tRPC inputs of the console's Replays pages.
import { z } from "zod";
import { ZUuid, queryInt, zText } from "../../shared/schemas.ts";

export const ZExperimentListInput = z.object({
  cursor: z.string().max(512).optional(),
  limit: z.number().int().min(1).max(100).default(25),
  traceFunctionKey: z.string().max(1000).optional(),
  datasetId: ZUuid.optional(),
  gitBranch: z.string().max(1000).optional(),
});
export type TExperimentListInput = z.output<typeof ZExperimentListInput>;

export const ZExperimentComparisonInput = z.object({
  id: ZUuid,
  /** The position of the last item served (items are numbered from 0 in selection order). */
  cursor: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TExperimentComparisonInput = z.output<typeof ZExperimentComparisonInput>;

// The run a replay call is about: testRunId and experimentId are synonyms (docs/api/replay.md).
export type RunIds = { testRunId?: string | null; experimentId?: string | null };

export const runIdentityChecks: [(b: RunIds) => boolean, { message: string; path?: string[] }][] = [
  [(b) => Boolean(b.testRunId ?? b.experimentId), { message: "send testRunId or experimentId" }],
  [
    (b) => !b.testRunId || !b.experimentId || b.testRunId === b.experimentId,
    { message: "testRunId and experimentId name different runs", path: ["experimentId"] },
  ],
];

/** The run the call is about: `testRunId` or `experimentId` (or both, equal). */
export const runId = (b: RunIds) => (b.testRunId ?? b.experimentId) as string;

export const ZExperimentStatus = z.enum(["pending", "completed", "failed", "interrupted"]);


// ─── Experiments and groups over REST (docs/api/replay.md, "Experiments and groups") ───────────────────

export const ZIdParams = z.object({ id: z.string() });
export const ZSaveExperimentBody = z.object({
  name: zText(120).nullable().optional(),
  notes: zText(10_000).nullable().optional(),
  experimentGroupId: ZUuid.nullable().optional(),
});
export const ZSaveGroupBody = z.object({
  experimentGroupId: ZUuid.optional(),
  experimentIds: z.array(ZUuid).min(1, "must hold 1 to 100 ids").max(100, "must hold 1 to 100 ids").optional(),
  name: zText(120).nullable().optional(),
  notes: zText(10_000).nullable().optional(),
});
export const ZGroupListQuery = z.object({ limit: queryInt(1, 100).optional() });
export const ZGraderIdsBody = z.object({ graderIds: z.array(ZUuid).min(1, "must hold 1 to 100 ids").max(100, "must hold 1 to 100 ids") });
export const ZRerunBody = z.object({ graderIds: z.array(ZUuid).min(1, "must hold 1 to 100 ids").max(100, "must hold 1 to 100 ids").optional() });
export const ZRerunQuery = z.object({ runId: z.string().min(1).max(100).optional() });
