// REST handlers of deleting data (docs/api.md, "Deleting data"). Thin: parse, call the service.
import { defineRoute } from "../../http/define-route.ts";
import { ZDeleteTracesBody, ZIdParams, ZTombstonesQuery, ZTraceIdParams } from "./deletion.schemas.ts";
import { deleteTrace, deleteTraces } from "./deletion.service.ts";
import { deleteAssertion, deleteDataset, deleteGrader, findTombstones, restoreDeleted } from "./items.service.ts";

/** DELETE /api/sdk/traces/{traceId} → {deletedTraceId} */
export const deleteTraceRoute = defineRoute({
  params: ZTraceIdParams,
  handler: ({ db, auth, params }) => deleteTrace(db, auth, params.traceId),
});

/** POST /api/sdk/traces/delete {traceIds | filter (+dryRun | confirmCount) | sessionId | userId (+metadataKey)} */
export const postDeleteTracesRoute = defineRoute({
  body: ZDeleteTracesBody,
  handler: ({ db, auth, body }) => deleteTraces(db, auth, body),
});

/** DELETE /api/sdk/datasets/{id} → {deletedDatasetId, keptTraceCount} */
export const deleteDatasetRoute = defineRoute({
  params: ZIdParams,
  handler: ({ db, auth, params }) => deleteDataset(db, auth, params.id),
});

/** DELETE /api/sdk/graders/{id} → {tombstone} */
export const deleteGraderRoute = defineRoute({
  params: ZIdParams,
  handler: ({ db, auth, params }) => deleteGrader(db, auth, params.id, "rest"),
});

/** DELETE /api/sdk/assertions/{id} → {tombstone} */
export const deleteAssertionRoute = defineRoute({
  params: ZIdParams,
  handler: ({ db, auth, params }) => deleteAssertion(db, auth, params.id, "rest"),
});

/** GET /api/sdk/deleted?kind=grader|assertion → {tombstones} */
export const listDeletedRoute = defineRoute({
  query: ZTombstonesQuery,
  handler: ({ db, auth, query }) => findTombstones(db, auth.organizationId, query.kind),
});

/** POST /api/sdk/deleted/{id}/restore → {tombstone} */
export const postRestoreRoute = defineRoute({
  params: ZIdParams,
  handler: ({ db, auth, params }) => restoreDeleted(db, auth, params.id),
});
