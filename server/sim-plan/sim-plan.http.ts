// REST handlers of the sim plan (docs/api/sim-plan.md).
import { defineRoute } from "../http/define-route.ts";
import { ZSimPlanPost } from "./sim-plan.schemas.ts";
import { decideSimPlan, getSimPlan } from "./sim-plan.service.ts";

/** GET /api/sdk/sim-plan → {nodes: [{traceFunctionKey, name, captureContent: false}]} */
export const getSimPlanRoute = defineRoute({
  permission: "read-sim-plan",
  handler: async ({ db, auth }) => ({ nodes: await getSimPlan(db, auth.organizationId) }),
});

/** POST /api/sdk/sim-plan {decisions} → {nodes, refused, cascaded} */
export const postSimPlanRoute = defineRoute({
  permission: "manage-sim-plan",
  body: ZSimPlanPost,
  handler: async ({ db, auth, body }) => decideSimPlan(db, auth.organizationId, { userId: auth.userId, via: "rest", apiKeyId: auth.apiKeyId }, body.decisions),
});
