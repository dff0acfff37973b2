// simPlan.*: the console's sim plan page, wiring over sim-plan.service.ts (the same functions as REST).
import { z } from "zod";
import { protectedProcedure, router } from "../init.ts";
import { describeLock } from "../../sim-plan/lock-rules.ts";
import { ZSimPlanDecision } from "../../sim-plan/sim-plan.schemas.ts";
import { decideSimPlan, findSimPlanNodes } from "../../sim-plan/sim-plan.service.ts";

export const simPlanRouter = router({
  nodes: protectedProcedure
    .input(z.object({ traceFunctionKey: z.string().max(1000).optional() }))
    .query(async ({ ctx, input }) => {
      const nodes = await findSimPlanNodes(ctx.db, ctx.auth.organizationId, input);
      return nodes.map((n) => ({ ...n, lockMessage: n.locked ? describeLock(n.lockReasons) : null }));
    }),

  /** One toggle; a locked node comes back under `refused` with the reason, nothing applied. */
  decide: protectedProcedure
    .input(ZSimPlanDecision)
    .mutation(({ ctx, input }) => decideSimPlan(ctx.db, ctx.auth.organizationId, ctx.auth.userId, [input])),
});
