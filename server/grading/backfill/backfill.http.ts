// /api/sdk/graders/{id}/backfill (docs/api/graders.md, "Backfills"): the estimate, start, progress and cancel.
import { defineRoute } from "../../http/define-route.ts";
import { ZBackfillParams, ZBackfillRange, ZBackfillRunQuery, ZCancelBackfillBody } from "./backfill.schemas.ts";
import { cancelBackfill, estimateBackfill, getBackfill, startBackfill } from "./backfill.service.ts";

const viaRest = (auth: { userId: string; apiKeyId: string }) => ({ userId: auth.userId, via: "rest" as const, apiKeyId: auth.apiKeyId });

export const getBackfillEstimate = defineRoute({
  permission: "read",
  params: ZBackfillParams,
  query: ZBackfillRange,
  handler: ({ db, auth, params, query }) => estimateBackfill(db, auth.organizationId, params.id, query),
});

export const postBackfill = defineRoute({
  permission: "manage-graders",
  params: ZBackfillParams,
  body: ZBackfillRange,
  handler: ({ db, auth, params, body }) => startBackfill(db, auth.organizationId, viaRest(auth), params.id, body),
});

export const getBackfillRun = defineRoute({
  permission: "read",
  params: ZBackfillParams,
  query: ZBackfillRunQuery,
  handler: ({ db, auth, params, query }) => getBackfill(db, auth.organizationId, params.id, query.runId),
});

export const postBackfillCancel = defineRoute({
  permission: "manage-graders",
  params: ZBackfillParams,
  body: ZCancelBackfillBody,
  handler: ({ db, auth, params, body }) => cancelBackfill(db, auth.organizationId, viaRest(auth), params.id, body.runId),
});
