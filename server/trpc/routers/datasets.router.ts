// datasets.*: the console's datasets page, wiring over the dataset services (the same functions as REST).
import { z } from "zod";
import { protectedProcedure, router } from "../init.ts";
import { getRerun, startRerun } from "../../grading/reruns/reruns.service.ts";
import { ZUuid } from "../../shared/schemas.ts";
import { addDatasetGraders, addDatasetTraces, findDatasetTraceIds, removeDatasetGraders, removeDatasetTraces } from "../../datasets/dataset-members.service.ts";
import { ZUpsertDatasetBody } from "../../datasets/datasets.schemas.ts";
import { findDatasets, getDataset, upsertDataset } from "../../datasets/datasets.service.ts";

const ZIds = z.array(ZUuid).min(1).max(100);
const ZDatasetRef = z.object({ id: ZUuid });

export const datasetsRouter = router({
  list: protectedProcedure
    .input(z.object({ traceFunctionKey: z.string().min(1).max(500).optional() }))
    .query(({ ctx, input }) => findDatasets(ctx.db, ctx.auth.organizationId, input)),

  get: protectedProcedure.input(ZDatasetRef).query(async ({ ctx, input }) => {
    const dataset = await getDataset(ctx.db, ctx.auth.organizationId, input.id);
    const { traceIds } = await findDatasetTraceIds(ctx.db, ctx.auth.organizationId, dataset.id);
    return { dataset, traceIds };
  }),

  save: protectedProcedure.input(ZUpsertDatasetBody).mutation(({ ctx, input }) => upsertDataset(ctx.db, ctx.auth.organizationId, input)),

  addTraces: protectedProcedure
    .input(ZDatasetRef.extend({ traceIds: ZIds }))
    .mutation(({ ctx, input }) => addDatasetTraces(ctx.db, ctx.auth.organizationId, input.id, input.traceIds)),
  removeTraces: protectedProcedure
    .input(ZDatasetRef.extend({ traceIds: ZIds }))
    .mutation(({ ctx, input }) => removeDatasetTraces(ctx.db, ctx.auth.organizationId, input.id, input.traceIds)),
  addGraders: protectedProcedure
    .input(ZDatasetRef.extend({ graderIds: ZIds }))
    .mutation(({ ctx, input }) => addDatasetGraders(ctx.db, ctx.auth.organizationId, input.id, input.graderIds)),
  removeGraders: protectedProcedure
    .input(ZDatasetRef.extend({ graderIds: ZIds }))
    .mutation(({ ctx, input }) => removeDatasetGraders(ctx.db, ctx.auth.organizationId, input.id, input.graderIds)),

  /** Re-runs the dataset's graders over its traces (POST …/rerunGraders); the page polls `rerun` for progress. */
  startRerun: protectedProcedure
    .input(ZDatasetRef.extend({ graderIds: ZIds.optional() }))
    .mutation(({ ctx, input }) => startRerun(ctx.db, ctx.auth.organizationId, input.id, input.graderIds)),
  rerun: protectedProcedure
    .input(ZDatasetRef.extend({ runId: ZUuid.optional() }))
    .query(({ ctx, input }) => getRerun(ctx.db, ctx.auth.organizationId, input.id, input.runId)),
});
