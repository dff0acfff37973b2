// GET/POST /api/sdk/graders (docs/api/graders.md).
import { defineRoute } from "../http/define-route.ts";
import { ZListGradersQuery, ZUpsertGraderBody } from "./graders.schemas.ts";
import { findGraders, upsertGrader } from "./graders.service.ts";

export const listGraders = defineRoute({
  query: ZListGradersQuery,
  handler: async ({ db, auth, query }) => ({ graders: await findGraders(db, auth.organizationId, query.traceFunctionKey) }),
});

export const postGrader = defineRoute({
  body: ZUpsertGraderBody,
  handler: async ({ db, auth, body }) => upsertGrader(db, auth.organizationId, body),
});
