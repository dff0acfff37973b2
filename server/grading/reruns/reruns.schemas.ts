// Dataset grader re-run wire contracts (docs/api/graders.md, "POST /api/sdk/datasets/{id}/rerunGraders").
import { z } from "zod";

export const ZRerunParams = z.object({ id: z.string() });
export const ZStartRerunBody = z.object({
  graderIds: z.array(z.string().min(1).max(200)).min(1, "must hold 1 to 100 ids").max(100, "must hold 1 to 100 ids").optional(),
});
export const ZGetRerunQuery = z.object({ runId: z.string().min(1).optional() });

export const ZRerunStatus = z.enum(["pending", "running", "completed", "errored"]);

export const ZGraderRerun = z.object({
  id: z.string(),
  /** The dataset re-graded; null for a re-run over an experiment or an experiment group. */
  datasetId: z.string().nullable(),
  experimentId: z.string().optional(),
  experimentGroupId: z.string().optional(),
  status: ZRerunStatus,
  graderIds: z.array(z.string()),
  progress: z.object({ completedTraces: z.number().int(), totalTraces: z.number().int(), graderCount: z.number().int() }).optional(),
  result: z.object({ tracesGraded: z.number().int(), gradersRun: z.number().int() }).optional(),
  error: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TGraderRerun = z.infer<typeof ZGraderRerun>;

export const ZStartRerunResponse = z.object({ run: ZGraderRerun, joinedExisting: z.boolean() });
export const ZGetRerunResponse = z.object({ run: ZGraderRerun.nullable() });
