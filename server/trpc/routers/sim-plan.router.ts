// simPlan.*: the console's sim plan page, wiring over sim-plan.service.ts (the same functions as REST).
import { z } from "zod";
import { allowed, protectedProcedure, router } from "../init.ts";
import { describeLock } from "../../sim-plan/lock-rules.ts";
import { ZSimPlanDecision } from "../../sim-plan/sim-plan.schemas.ts";
import { decideSimPlanUndoable, findSimPlanNodes, restoreSimPlan } from "../../sim-plan/sim-plan.service.ts";

export const simPlanRouter = router({
  nodes: protectedProcedure
    .input(z.object({ traceFunctionKey: z.string().max(1000).optional() }))
    .query(async ({ ctx, input }) => {
      const nodes = await findSimPlanNodes(ctx.db, ctx.auth.organizationId, input);
      return nodes.map((n) => ({ ...n, lockMessage: n.locked ? describeLock(n.lockReasons) : null }));
    }),

  /**
   * One toggle; a locked node comes back under `refused` with the reason, nothing applied. `previous` holds
   * what every changed node was before, for `restore` (the page's undo).
   */
  decide: allowed("manage-sim-plan")
    .input(ZSimPlanDecision)
    .mutation(({ ctx, input }) => decideSimPlanUndoable(ctx.db, ctx.auth.organizationId, { userId: ctx.auth.userId, via: "console" }, [input])),

  /** Undo: puts the given decisions back as they were, without cascading. */
  restore: allowed("manage-sim-plan")
    .input(z.object({ decisions: z.array(ZSimPlanDecision).min(1).max(1000) }))
    .mutation(({ ctx, input }) => restoreSimPlan(ctx.db, ctx.auth.organizationId, { userId: ctx.auth.userId, via: "console" }, input.decisions)),
});
