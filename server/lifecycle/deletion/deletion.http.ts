// REST handlers of deleting data (docs/api.md, "Deleting data"). Thin: parse, call the service.
import { defineRoute } from "../../http/define-route.ts";
import { ZDeleteTracesBody, ZIdParams, ZTombstonesQuery, ZTraceIdParams } from "./deletion.schemas.ts";
import { deleteTrace, deleteTraces } from "./deletion.service.ts";
import { deleteAssertion, deleteDataset, deleteGrader, findTombstones, restoreDeleted } from "./items.service.ts";

/** DELETE /api/sdk/traces/{traceId} → {deletedTraceId} */
export const deleteTraceRoute = defineRoute({
  permission: "delete-data",
  params: ZTraceIdParams,
  handler: ({ db, auth, actor, params }) => deleteTrace(db, auth, actor, params.traceId),
});

/** POST /api/sdk/traces/delete {traceIds | filter (+dryRun | confirmCount) | sessionId | userId (+metadataKey)} */
export const postDeleteTracesRoute = defineRoute({
  permission: "delete-data",
  body: ZDeleteTracesBody,
  handler: ({ db, auth, actor, body }) => deleteTraces(db, auth, actor, body),
});

/** DELETE /api/sdk/datasets/{id} → {deletedDatasetId, keptTraceCount} */
export const deleteDatasetRoute = defineRoute({
  permission: "delete-data",
  params: ZIdParams,
  handler: ({ db, auth, actor, params }) => deleteDataset(db, auth, actor, params.id),
});

/** DELETE /api/sdk/graders/{id} → {tombstone} */
export const deleteGraderRoute = defineRoute({
  permission: "delete-data",
  params: ZIdParams,
  handler: ({ db, auth, actor, params }) => deleteGrader(db, auth, actor, params.id),
});

/** DELETE /api/sdk/assertions/{id} → {tombstone} */
export const deleteAssertionRoute = defineRoute({
  permission: "delete-data",
  params: ZIdParams,
  handler: ({ db, auth, actor, params }) => deleteAssertion(db, auth, actor, params.id),
});

/** GET /api/sdk/deleted?kind=grader|assertion → {tombstones} */
export const listDeletedRoute = defineRoute({
  permission: "read",
  query: ZTombstonesQuery,
  handler: ({ db, auth, query }) => findTombstones(db, auth.organizationId, query.kind),
});

/** POST /api/sdk/deleted/{id}/restore → {tombstone} */
export const postRestoreRoute = defineRoute({
  permission: "delete-data",
  params: ZIdParams,
  handler: ({ db, auth, actor, params }) => restoreDeleted(db, auth, actor, params.id),
});
