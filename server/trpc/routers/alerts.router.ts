// alerts.*: the console's Alerts page, wiring over the same services as REST (docs/alerts.md).
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import { ZAlertIdParams, ZAlertRestore, ZAlertRuleCreate, ZAlertRuleUpdate } from "../../insight/alerts/alerts.schemas.ts";
import { createAlertRule, deleteAlertRule, findAlertRules, getAlertRule, restoreAlertRule, updateAlertRule } from "../../insight/alerts/rules.service.ts";
import { checkAlertsNow } from "../../insight/alerts/evaluate.service.ts";
import { allowed, protectedProcedure, router } from "../init.ts";

const viaConsole = (auth: { userId: string }): TAuditActor => ({ userId: auth.userId, via: "console" });

export const alertsRouter = router({
  list: protectedProcedure.query(({ ctx }) => findAlertRules(ctx.db, ctx.auth.organizationId)),

  /** A rule with its versions, latest events and delivery log. */
  get: protectedProcedure.input(ZAlertIdParams).query(({ ctx, input }) => getAlertRule(ctx.db, ctx.auth.organizationId, input.id)),

  /** Answers the new rule's webhook secret, once. */
  create: allowed("manage-alerts").input(ZAlertRuleCreate).mutation(({ ctx, input }) => createAlertRule(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input)),

  update: allowed("manage-alerts")
    .input(ZAlertIdParams.extend({ changes: ZAlertRuleUpdate }))
    .mutation(({ ctx, input }) => updateAlertRule(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input.id, input.changes)),

  delete: allowed("manage-alerts")
    .input(ZAlertIdParams)
    .mutation(({ ctx, input }) => deleteAlertRule(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input.id)),

  /** Evaluates the organization's rules now (firing or resolving as the schedule would). */
  check: allowed("manage-alerts").mutation(({ ctx }) => checkAlertsNow(ctx.db, ctx.auth.organizationId)),

  restore: allowed("manage-alerts")
    .input(ZAlertIdParams.extend(ZAlertRestore.shape))
    .mutation(({ ctx, input }) => restoreAlertRule(ctx.db, ctx.auth.organizationId, viaConsole(ctx.auth), input.id, input.version)),
});
