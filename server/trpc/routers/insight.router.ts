// insight.*: the console's dashboard and its model price page, wiring over the same services as REST and MCP
// (docs/dashboard.md, docs/cost.md).
import { z } from "zod";
import { allowed, protectedProcedure, router } from "../init.ts";
import { getDashboard } from "../../insight/dashboard/dashboard.service.ts";
import { ZDashboardInput } from "../../insight/dashboard/dashboard.schemas.ts";
import { ZPriceRestore, ZPriceSave, ZRange } from "../../insight/cost/cost.schemas.ts";
import { deletePrice, findPriceTable, findPriceVersions, restorePriceVersion, savePrice } from "../../insight/cost/prices.service.ts";
import { findRecomputes, startRecompute } from "../../insight/cost/recompute.service.ts";
import { findUnpricedSpans } from "../../insight/cost/unpriced.service.ts";

export const insightRouter = router({
  dashboard: protectedProcedure.input(ZDashboardInput).query(({ ctx, input }) => getDashboard(ctx.db, ctx.auth.organizationId, input)),

  prices: protectedProcedure.query(({ ctx }) => findPriceTable(ctx.db, ctx.auth.organizationId)),

  /** A new price, or (with id) the next version of one; the previous version is kept. */
  savePrice: allowed("manage-prices").input(ZPriceSave).mutation(({ ctx, input }) => savePrice(ctx.db, ctx.auth.organizationId, ctx.actor, input)),

  deletePrice: allowed("manage-prices")
    .input(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) => deletePrice(ctx.db, ctx.auth.organizationId, ctx.actor, input.id)),

  priceVersions: protectedProcedure
    .input(z.object({ id: z.uuid() }))
    .query(({ ctx, input }) => findPriceVersions(ctx.db, ctx.auth.organizationId, input.id)),

  restorePrice: allowed("manage-prices")
    .input(ZPriceRestore.extend({ id: z.uuid() }))
    .mutation(({ ctx, input }) => restorePriceVersion(ctx.db, ctx.auth.organizationId, ctx.actor, input.id, input.version)),

  unpriced: protectedProcedure
    .input(z.object({ from: z.date(), to: z.date(), model: z.string().max(400).optional() }))
    .query(({ ctx, input }) => findUnpricedSpans(ctx.db, ctx.auth.organizationId, { ...input, limit: 50 })),

  recompute: allowed("manage-prices").input(ZRange).mutation(({ ctx, input }) => startRecompute(ctx.db, ctx.auth.organizationId, ctx.auth.userId, input.from, input.to)),

  recomputes: protectedProcedure.query(({ ctx }) => findRecomputes(ctx.db, ctx.auth.organizationId)),
});
