// datasets.*: the console's datasets page, wiring over the dataset services (the same functions as REST).
import { z } from "zod";
import { allowed, protectedProcedure, router } from "../init.ts";
import { getRerunWithResults, startRerun } from "../../grading/reruns/reruns.service.ts";
import { ZUuid } from "../../shared/schemas.ts";
import {
  addDatasetGraders,
  addDatasetTraces,
  findDatasetIdsOfTraces,
  findDatasetMembers,
  removeDatasetGraders,
  removeDatasetTraces,
} from "../../datasets/dataset-members.service.ts";
import { ZUpsertDatasetBody } from "../../datasets/datasets.schemas.ts";
import { createDataset, findDatasets, getDataset, upsertDataset } from "../../datasets/datasets.service.ts";
import { findTracesByIds } from "../../traces/traces.service.ts";
import { findTracePreviews } from "../../trace-view/trace-view.service.ts";

const ZIds = z.array(ZUuid).min(1).max(100);
const ZDatasetRef = z.object({ id: ZUuid });

export const datasetsRouter = router({
  list: protectedProcedure
    .input(z.object({ traceFunctionKey: z.string().min(1).max(500).optional() }))
    .query(({ ctx, input }) => findDatasets(ctx.db, ctx.auth.organizationId, input)),

  get: protectedProcedure.input(ZDatasetRef).query(async ({ ctx, input }) => ({ dataset: await getDataset(ctx.db, ctx.auth.organizationId, input.id) })),

  /** The dataset's traces, most recently added first, a page at a time (members of any age). */
  members: protectedProcedure
    .input(ZDatasetRef.extend({ offset: z.number().int().min(0).max(1_000_000).default(0), limit: z.number().int().min(1).max(100).default(25) }))
    .query(async ({ ctx, input }) => {
      const org = ctx.auth.organizationId;
      const { total, members } = await findDatasetMembers(ctx.db, org, input.id, input);
      const ids = members.map((m) => m.traceId);
      const [found, previews] = await Promise.all([findTracesByIds(ctx.db, org, ids), findTracePreviews(ctx.db, org, ids)]);
      const traces = new Map(found.map((t) => [t.id, t]));
      // Each member's title and the start of its input, so traces of one function can be told apart.
      return { total, members: members.map((m) => ({ ...m, trace: traces.get(m.traceId) ?? null, preview: previews.get(m.traceId) ?? null })) };
    }),

  /** For each trace, the datasets it is in ("Add to dataset" on the trace page and the trace list). */
  membershipsOf: protectedProcedure
    .input(z.object({ traceIds: z.array(ZUuid).min(1).max(100) }))
    .query(({ ctx, input }) => findDatasetIdsOfTraces(ctx.db, ctx.auth.organizationId, input.traceIds)),

  /** "New dataset": refuses a name the trace function already has (CONFLICT), unlike REST's upsert. */
  create: allowed("curate").input(ZUpsertDatasetBody).mutation(({ ctx, input }) => createDataset(ctx.db, ctx.auth.organizationId, ctx.actor, input)),

  /** Edit: upsert by trace function + name (the edit dialog keeps both fixed and changes the description). */
  save: allowed("curate").input(ZUpsertDatasetBody).mutation(({ ctx, input }) => upsertDataset(ctx.db, ctx.auth.organizationId, ctx.actor, input)),

  addTraces: allowed("curate")
    .input(ZDatasetRef.extend({ traceIds: ZIds }))
    .mutation(({ ctx, input }) => addDatasetTraces(ctx.db, ctx.auth.organizationId, ctx.actor, input.id, input.traceIds)),
  removeTraces: allowed("curate")
    .input(ZDatasetRef.extend({ traceIds: ZIds }))
    .mutation(({ ctx, input }) => removeDatasetTraces(ctx.db, ctx.auth.organizationId, ctx.actor, input.id, input.traceIds)),
  addGraders: allowed("curate")
    .input(ZDatasetRef.extend({ graderIds: ZIds }))
    .mutation(({ ctx, input }) => addDatasetGraders(ctx.db, ctx.auth.organizationId, ctx.actor, input.id, input.graderIds)),
  removeGraders: allowed("curate")
    .input(ZDatasetRef.extend({ graderIds: ZIds }))
    .mutation(({ ctx, input }) => removeDatasetGraders(ctx.db, ctx.auth.organizationId, ctx.actor, input.id, input.graderIds)),

  /** Re-runs the dataset's graders over its traces (POST …/rerunGraders); the page polls `rerun` for progress. */
  startRerun: allowed("replay")
    .input(ZDatasetRef.extend({ graderIds: ZIds.optional() }))
    .mutation(({ ctx, input }) => startRerun(ctx.db, ctx.auth.organizationId, input.id, input.graderIds)),
  rerun: protectedProcedure
    .input(ZDatasetRef.extend({ runId: ZUuid.optional() }))
    .query(async ({ ctx, input }) => {
      const org = ctx.auth.organizationId;
      const rerun = await getRerunWithResults(ctx.db, org, input.id, input.runId);
      const previews = await findTracePreviews(ctx.db, org, rerun.results.map((r) => r.traceId));
      return { ...rerun, results: rerun.results.map((r) => ({ ...r, preview: previews.get(r.traceId) ?? null })) };
    }),
});
