// REST handlers of /api/sdk/experiments/** and /api/sdk/experimentGroups/** (docs/api/replay.md,
// "Experiments and groups"). Thin: parse, call the service.
import { defineRoute } from "../../http/define-route.ts";
import {
  changeExperimentGraders,
  changeGroupGraders,
  findExperimentGroups,
  getExperimentGroup,
  getRerunOn,
  rerunGradersOn,
  saveExperiment,
  saveExperimentGroup,
} from "./experiment-admin.service.ts";
import { getExperimentReport } from "./experiment-report.service.ts";
import { ZGraderIdsBody, ZGroupListQuery, ZIdParams, ZRerunBody, ZRerunQuery, ZSaveExperimentBody, ZSaveGroupBody } from "./experiments.schemas.ts";

export const getExperimentById = defineRoute({ permission: "read", params: ZIdParams, handler: ({ db, auth, params }) => getExperimentReport(db, auth.organizationId, params.id) });
export const patchExperiment = defineRoute({
  permission: "replay",
  params: ZIdParams,
  body: ZSaveExperimentBody,
  handler: async ({ db, auth, params, body }) => ({ experiment: await saveExperiment(db, auth.organizationId, { experimentId: params.id, ...body }) }),
});
export const postExperimentGraders = defineRoute({
  permission: "curate",
  params: ZIdParams,
  body: ZGraderIdsBody,
  handler: ({ db, auth, params, body }) => changeExperimentGraders(db, auth.organizationId, params.id, { add: body.graderIds }),
});
export const postExperimentRemoveGraders = defineRoute({
  permission: "curate",
  params: ZIdParams,
  body: ZGraderIdsBody,
  handler: ({ db, auth, params, body }) => changeExperimentGraders(db, auth.organizationId, params.id, { remove: body.graderIds }),
});
export const postExperimentRerun = defineRoute({
  permission: "replay",
  params: ZIdParams,
  body: ZRerunBody,
  handler: ({ db, auth, params, body }) => rerunGradersOn(db, auth.organizationId, { experimentId: params.id }, body.graderIds),
});
export const getExperimentRerun = defineRoute({
  permission: "read",
  params: ZIdParams,
  query: ZRerunQuery,
  handler: ({ db, auth, params, query }) => getRerunOn(db, auth.organizationId, { experimentId: params.id }, query.runId),
});

export const listExperimentGroups = defineRoute({ permission: "read", query: ZGroupListQuery, handler: ({ db, auth, query }) => findExperimentGroups(db, auth.organizationId, query.limit ?? 20) });
export const postExperimentGroup = defineRoute({ permission: "replay", body: ZSaveGroupBody, handler: ({ db, auth, body }) => saveExperimentGroup(db, auth.organizationId, body) });
export const getExperimentGroupById = defineRoute({ permission: "read", params: ZIdParams, handler: ({ db, auth, params }) => getExperimentGroup(db, auth.organizationId, params.id) });
export const postGroupGraders = defineRoute({
  permission: "curate",
  params: ZIdParams,
  body: ZGraderIdsBody,
  handler: ({ db, auth, params, body }) => changeGroupGraders(db, auth.organizationId, params.id, { add: body.graderIds }),
});
export const postGroupRemoveGraders = defineRoute({
  permission: "curate",
  params: ZIdParams,
  body: ZGraderIdsBody,
  handler: ({ db, auth, params, body }) => changeGroupGraders(db, auth.organizationId, params.id, { remove: body.graderIds }),
});
export const postGroupRerun = defineRoute({
  permission: "replay",
  params: ZIdParams,
  body: ZRerunBody,
  handler: ({ db, auth, params, body }) => rerunGradersOn(db, auth.organizationId, { experimentGroupId: params.id }, body.graderIds),
});
export const getGroupRerun = defineRoute({
  permission: "read",
  params: ZIdParams,
  query: ZRerunQuery,
  handler: ({ db, auth, params, query }) => getRerunOn(db, auth.organizationId, { experimentGroupId: params.id }, query.runId),
});
