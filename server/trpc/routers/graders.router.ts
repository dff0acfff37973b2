// graders.*: the console's graders page, wiring over graders.service.ts (the same functions as REST). Every
// write is a version attributed to the signed-in user through the console.
import { z } from "zod";
import { allowed, protectedProcedure, router } from "../init.ts";
import { getEnv } from "../../env.ts";
import { isJudgeConfigured } from "../../grading/judge.ts";
import { ZRevertGraderBody, ZSaveGraderBody } from "../../graders/graders.schemas.ts";
import { createGrader, findGraderVersions, findGraders, revertGrader, saveGrader, type TGraderActor } from "../../graders/graders.service.ts";

const viaConsole = (auth: { userId: string }): TGraderActor => ({ userId: auth.userId, via: "console" });

export const gradersRouter = router({
  list: protectedProcedure
    .input(z.object({ traceFunctionKey: z.string().min(1).max(500).optional() }))
    .query(({ ctx, input }) => findGraders(ctx.db, ctx.auth.organizationId, input.traceFunctionKey)),

  /** "New grader": refuses a name the trace function already has (CONFLICT). */
  create: allowed("manage-graders").input(ZSaveGraderBody).mutation(({ ctx, input }) => createGrader(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input)),

  /** Edit (id) as a new version, or create without one; archiving is an edit to status "archived". */
  save: allowed("manage-graders").input(ZSaveGraderBody).mutation(({ ctx, input }) => saveGrader(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input)),

  /** The grader's history, newest first. */
  versions: protectedProcedure
    .input(z.object({ id: z.uuid() }))
    .query(({ ctx, input }) => findGraderVersions(ctx.db, ctx.auth.organizationId, input.id)),

  /** A new version equal to an old one. */
  revert: allowed("manage-graders")
    .input(ZRevertGraderBody.extend({ id: z.uuid() }))
    .mutation(({ ctx, input }) => revertGrader(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input.id, input.version)),

  /** Whether LLM-judge graders can reach a model (OPENAI_API_KEY or OPENAI_BASE_URL set), so the form can warn. */
  judgeStatus: protectedProcedure.query(() => {
    const env = getEnv();
    return { configured: isJudgeConfigured(), baseUrl: env.OPENAI_BASE_URL };
  }),
});
