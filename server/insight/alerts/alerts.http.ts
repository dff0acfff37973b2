// REST handlers of alerts (docs/alerts.md, "REST"): rules, their versions, events and delivery log.
import type { TAuthContext } from "../../auth/auth.schemas.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import { defineRoute } from "../../http/define-route.ts";
import { json } from "../../http/responses.ts";
import { ZAlertIdParams, ZAlertRestore, ZAlertRuleCreate, ZAlertRuleUpdate } from "./alerts.schemas.ts";
import { checkAlertsNow } from "./evaluate.service.ts";
import { createAlertRule, deleteAlertRule, findAlertRules, getAlertRule, restoreAlertRule, updateAlertRule } from "./rules.service.ts";

const viaRest = (auth: TAuthContext): TAuditActor => ({ userId: auth.userId, via: "rest", apiKeyId: auth.apiKeyId });

/** GET /api/sdk/alerts → {rules} */
export const listAlertRules = defineRoute({
  permission: "read",
  handler: async ({ db, auth }) => ({ rules: await findAlertRules(db, auth.organizationId) }),
});

/** POST /api/sdk/alerts {name, kind, threshold, windowMinutes, webhookUrl, …} → 201 {rule, secret} (the secret only here) */
export const postAlertRule = defineRoute({
  permission: "manage-alerts",
  body: ZAlertRuleCreate,
  handler: async ({ db, auth, body }) => json(await createAlertRule(db, auth.organizationId, viaRest(auth), body), { status: 201 }),
});

/** GET /api/sdk/alerts/{id} → {rule, versions, events, deliveries} */
export const getAlertRuleRoute = defineRoute({
  permission: "read",
  params: ZAlertIdParams,
  handler: ({ db, auth, params }) => getAlertRule(db, auth.organizationId, params.id),
});

/** PATCH /api/sdk/alerts/{id} {fields…, rotateSecret?} → {rule, secret} (secret null unless rotated) */
export const patchAlertRule = defineRoute({
  permission: "manage-alerts",
  params: ZAlertIdParams,
  body: ZAlertRuleUpdate,
  handler: ({ db, auth, params, body }) => updateAlertRule(db, auth.organizationId, viaRest(auth), params.id, body),
});

/** DELETE /api/sdk/alerts/{id} → {deleted: true} (a new version; restoring an earlier one undoes it) */
export const deleteAlertRuleRoute = defineRoute({
  permission: "manage-alerts",
  params: ZAlertIdParams,
  handler: async ({ db, auth, params }) => {
    await deleteAlertRule(db, auth.organizationId, viaRest(auth), params.id);
    return { deleted: true };
  },
});

/** POST /api/sdk/alerts/{id}/restore {version} → {rule, secret: null} */
export const restoreAlertRuleRoute = defineRoute({
  permission: "manage-alerts",
  params: ZAlertIdParams,
  body: ZAlertRestore,
  handler: ({ db, auth, params, body }) => restoreAlertRule(db, auth.organizationId, viaRest(auth), params.id, body.version),
});

/** POST /api/sdk/alerts/check → {rules, fired, resolved}: the organization's rules evaluated now. */
export const postAlertCheck = defineRoute({
  permission: "manage-alerts",
  handler: ({ db, auth }) => checkAlertsNow(db, auth.organizationId),
});
