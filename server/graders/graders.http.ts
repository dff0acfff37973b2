// /api/sdk/graders (docs/api/graders.md): list, create or edit by id, a grader's versions, revert.
import { defineRoute } from "../http/define-route.ts";
import { ZGraderIdParams, ZListGradersQuery, ZRevertGraderBody, ZSaveGraderBody } from "./graders.schemas.ts";
import { findGraderVersions, findGraders, revertGrader, saveGrader, type TGraderActor } from "./graders.service.ts";

const viaRest = (auth: { userId: string; apiKeyId: string }): TGraderActor => ({ userId: auth.userId, via: "rest", apiKeyId: auth.apiKeyId });

export const listGraders = defineRoute({
  permission: "read",
  query: ZListGradersQuery,
  handler: async ({ db, auth, query }) => ({ graders: await findGraders(db, auth.organizationId, query.traceFunctionKey) }),
});

/** Without `id` creates (409 with `existingId` when the name is taken); with `id` edits that grader as a new version. */
export const postGrader = defineRoute({
  permission: "manage-graders",
  body: ZSaveGraderBody,
  handler: async ({ db, auth, body }) => saveGrader(db, auth.organizationId, viaRest(auth), body),
});

export const getGraderVersions = defineRoute({
  permission: "read",
  params: ZGraderIdParams,
  handler: ({ db, auth, params }) => findGraderVersions(db, auth.organizationId, params.id),
});

export const postGraderRevert = defineRoute({
  permission: "manage-graders",
  params: ZGraderIdParams,
  body: ZRevertGraderBody,
  handler: ({ db, auth, params, body }) => revertGrader(db, auth.organizationId, viaRest(auth), params.id, body.version),
});
