// replays.*: the console's Replays pages, wiring over experiments.service.ts.
import { protectedProcedure, router } from "../init.ts";
import { ZExperimentComparisonInput, ZExperimentListInput } from "../../replay/experiments/experiments.schemas.ts";
import { findExperiments, getExperimentComparison } from "../../replay/experiments/experiment-list.service.ts";

export const replaysRouter = router({
  list: protectedProcedure.input(ZExperimentListInput).query(({ ctx, input }) => findExperiments(ctx.db, ctx.auth.organizationId, input)),
  get: protectedProcedure.input(ZExperimentComparisonInput).query(({ ctx, input }) => getExperimentComparison(ctx.db, ctx.auth.organizationId, input)),
});
