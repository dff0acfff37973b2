// graderBackfills.*: the console's backfill dialog (docs/graders.md, "Online evaluation"), wiring over
// backfill.service.ts (the same functions as REST). The estimate is shown before a start; starting and
// cancelling are grader writes (manage-graders), attributed to the signed-in user and audited.
import { z } from "zod";
import { allowed, protectedProcedure, router } from "../init.ts";
import { ZGraderBackfillRange } from "../../grading/backfill/backfill.schemas.ts";
import { cancelBackfill, estimateBackfill, getBackfill, startBackfill } from "../../grading/backfill/backfill.service.ts";

const ZGraderId = z.object({ graderId: z.uuid() });
const viaConsole = (auth: { userId: string }) => ({ userId: auth.userId, via: "console" as const });

export const graderBackfillsRouter = router({
  /** What a backfill over the range would grade and cost; writes nothing. */
  estimate: protectedProcedure
    .input(ZGraderBackfillRange)
    .query(({ ctx, input }) => estimateBackfill(ctx.db, ctx.auth.organizationId, input.graderId, input)),

  /** The grader's newest backfill (or the named one), with its progress. */
  get: protectedProcedure
    .input(ZGraderId.extend({ runId: z.uuid().optional() }))
    .query(({ ctx, input }) => getBackfill(ctx.db, ctx.auth.organizationId, input.graderId, input.runId)),

  start: allowed("manage-graders")
    .input(ZGraderBackfillRange)
    .mutation(({ ctx, input }) => startBackfill(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input.graderId, input)),

  cancel: allowed("manage-graders")
    .input(ZGraderId.extend({ runId: z.uuid() }))
    .mutation(({ ctx, input }) => cancelBackfill(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input.graderId, input.runId)),
});
