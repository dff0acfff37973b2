// graders.*: the console's graders page, wiring over graders.service.ts (the same functions as REST).
import { z } from "zod";
import { protectedProcedure, router } from "../init.ts";
import { ZUpsertGraderBody } from "../../graders/graders.schemas.ts";
import { findGraders, upsertGrader } from "../../graders/graders.service.ts";

export const gradersRouter = router({
  list: protectedProcedure
    .input(z.object({ traceFunctionKey: z.string().min(1).max(500).optional() }))
    .query(({ ctx, input }) => findGraders(ctx.db, ctx.auth.organizationId, input.traceFunctionKey)),

  /** Create (no id: upsert by trace function + name) or edit (id); archiving is an edit to status "archived". */
  save: protectedProcedure.input(ZUpsertGraderBody).mutation(({ ctx, input }) => upsertGrader(ctx.db, ctx.auth.organizationId, input)),
});
