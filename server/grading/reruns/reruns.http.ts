// POST/GET /api/sdk/datasets/{id}/rerunGraders (docs/api/graders.md).
import { defineRoute } from "../../http/define-route.ts";
import { ZGetRerunQuery, ZRerunParams, ZStartRerunBody } from "./reruns.schemas.ts";
import { getRerun, startRerun } from "./reruns.service.ts";

export const postRerunGraders = defineRoute({
  permission: "replay",
  params: ZRerunParams,
  body: ZStartRerunBody,
  handler: async ({ db, auth, params, body }) => startRerun(db, auth.organizationId, params.id, body.graderIds),
});

export const getRerunGraders = defineRoute({
  permission: "read",
  params: ZRerunParams,
  query: ZGetRerunQuery,
  handler: async ({ db, auth, params, query }) => getRerun(db, auth.organizationId, params.id, query.runId),
});
