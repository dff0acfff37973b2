// graders.*: the console's graders page, wiring over graders.service.ts (the same functions as REST).
import { z } from "zod";
import { protectedProcedure, router } from "../init.ts";
import { getEnv } from "../../env.ts";
import { isJudgeConfigured } from "../../grading/judge.ts";
import { ZUpsertGraderBody } from "../../graders/graders.schemas.ts";
import { createGrader, findGraders, upsertGrader } from "../../graders/graders.service.ts";

export const gradersRouter = router({
  list: protectedProcedure
    .input(z.object({ traceFunctionKey: z.string().min(1).max(500).optional() }))
    .query(({ ctx, input }) => findGraders(ctx.db, ctx.auth.organizationId, input.traceFunctionKey)),

  /** "New grader": refuses a name the trace function already has (CONFLICT), unlike REST's upsert. */
  create: protectedProcedure.input(ZUpsertGraderBody).mutation(({ ctx, input }) => createGrader(ctx.db, ctx.auth.organizationId, input)),

  /** Edit (id), or upsert by trace function + name without one; archiving is an edit to status "archived". */
  save: protectedProcedure.input(ZUpsertGraderBody).mutation(({ ctx, input }) => upsertGrader(ctx.db, ctx.auth.organizationId, input)),

  /** Whether LLM-judge graders can reach a model (OPENAI_API_KEY or OPENAI_BASE_URL set), so the form can warn. */
  judgeStatus: protectedProcedure.query(() => {
    const env = getEnv();
    return { configured: isJudgeConfigured(), baseUrl: env.OPENAI_BASE_URL };
  }),
});
