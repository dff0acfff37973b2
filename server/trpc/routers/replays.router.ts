// replays.*: the console's Replays pages, wiring over experiments.service.ts, plus each compared trace's
// root output for the side-by-side diff (server/trace-view).
import { z } from "zod";
import { protectedProcedure, router } from "../init.ts";
import { ZUuid } from "../../shared/schemas.ts";
import { findExperimentGroups, getExperimentGroup } from "../../replay/experiments/experiment-admin.service.ts";
import { getExperimentReport } from "../../replay/experiments/experiment-report.service.ts";
import { ZExperimentComparisonInput, ZExperimentListInput } from "../../replay/experiments/experiments.schemas.ts";
import { findExperiments, getExperimentComparison } from "../../replay/experiments/experiment-list.service.ts";
import { findRootOutputs, findTracePreviews } from "../../trace-view/trace-view.service.ts";

export const replaysRouter = router({
  /** The experiment report: totals, delta against originals, per-grader pass rates, per-assertion results. */
  report: protectedProcedure.input(z.object({ id: ZUuid })).query(({ ctx, input }) => getExperimentReport(ctx.db, ctx.auth.organizationId, input.id)),
  groups: protectedProcedure.input(z.object({ limit: z.number().int().min(1).max(100).default(50) })).query(({ ctx, input }) => findExperimentGroups(ctx.db, ctx.auth.organizationId, input.limit)),
  group: protectedProcedure.input(z.object({ id: ZUuid })).query(({ ctx, input }) => getExperimentGroup(ctx.db, ctx.auth.organizationId, input.id)),
  list: protectedProcedure.input(ZExperimentListInput).query(({ ctx, input }) => findExperiments(ctx.db, ctx.auth.organizationId, input)),
  get: protectedProcedure.input(ZExperimentComparisonInput).query(async ({ ctx, input }) => {
    const page = await getExperimentComparison(ctx.db, ctx.auth.organizationId, input);
    const ids = page.items.flatMap((i) => [...(i.original ? [i.original.traceId] : []), ...i.replays.map((r) => r.traceId)]);
    const originals = page.items.flatMap((i) => (i.original ? [i.original.traceId] : []));
    const [outputs, previews] = await Promise.all([
      findRootOutputs(ctx.db, ctx.auth.organizationId, ids),
      findTracePreviews(ctx.db, ctx.auth.organizationId, originals),
    ]);
    // Each original's input preview: the items of one trace function read alike by title alone.
    return { ...page, outputs, previews: Object.fromEntries(previews) };
  }),
});
