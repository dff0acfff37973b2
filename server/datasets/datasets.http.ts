// REST handlers of /api/sdk/datasets/** (docs/api/datasets.md). Thin: parse, call the service.
import { defineRoute } from "../http/define-route.ts";
import {
  addDatasetGraders,
  addDatasetTraces,
  findDatasetTraceIds,
  removeDatasetGraders,
  removeDatasetTraces,
} from "./dataset-members.service.ts";
import {
  ZDatasetIdParams,
  ZGraderIdsBody,
  ZListDatasetsQuery,
  ZListDatasetTracesQuery,
  ZTraceIdsBody,
  ZUpsertDatasetBody,
} from "./datasets.schemas.ts";
import { findDatasets, getDataset, upsertDataset } from "./datasets.service.ts";

export const listDatasets = defineRoute({
  permission: "read",
  query: ZListDatasetsQuery,
  handler: ({ db, auth, query }) => findDatasets(db, auth.organizationId, query),
});

export const postDataset = defineRoute({
  permission: "curate",
  body: ZUpsertDatasetBody,
  handler: ({ db, auth, actor, body }) => upsertDataset(db, auth.organizationId, actor, body),
});

export const getDatasetById = defineRoute({
  permission: "read",
  params: ZDatasetIdParams,
  handler: async ({ db, auth, params }) => ({ dataset: await getDataset(db, auth.organizationId, params.id) }),
});

export const listDatasetTraces = defineRoute({
  permission: "read",
  params: ZDatasetIdParams,
  query: ZListDatasetTracesQuery,
  handler: ({ db, auth, params, query }) => findDatasetTraceIds(db, auth.organizationId, params.id, query),
});

export const postDatasetTraces = defineRoute({
  permission: "curate",
  params: ZDatasetIdParams,
  body: ZTraceIdsBody,
  handler: ({ db, auth, actor, params, body }) => addDatasetTraces(db, auth.organizationId, actor, params.id, body.traceIds),
});

export const postRemoveDatasetTraces = defineRoute({
  permission: "curate",
  params: ZDatasetIdParams,
  body: ZTraceIdsBody,
  handler: ({ db, auth, actor, params, body }) => removeDatasetTraces(db, auth.organizationId, actor, params.id, body.traceIds),
});

export const postDatasetGraders = defineRoute({
  permission: "curate",
  params: ZDatasetIdParams,
  body: ZGraderIdsBody,
  handler: ({ db, auth, actor, params, body }) => addDatasetGraders(db, auth.organizationId, actor, params.id, body.graderIds),
});

export const postRemoveDatasetGraders = defineRoute({
  permission: "curate",
  params: ZDatasetIdParams,
  body: ZGraderIdsBody,
  handler: ({ db, auth, actor, params, body }) => removeDatasetGraders(db, auth.organizationId, actor, params.id, body.graderIds),
});
