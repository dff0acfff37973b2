// Wire contracts of the dataset endpoints (docs/api/datasets.md).
import { z } from "zod";
import { queryInt } from "../shared/schemas.ts";

/**
 * An id we look up (trace, grader). Any string is accepted; one that names nothing of the organization is reported in
 * the partial-acceptance lists, the same as a foreign id (docs/api/datasets.md,
 * "POST /api/sdk/datasets/{id}/traces").
 */
export const ZLookupId = z.string().min(1, "must not be empty").max(200, "must be at most 200 characters");

const nonBlank = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim() !== "", "must not be empty");

export const ZDatasetIdParams = z.object({ id: z.string() });
export type TDatasetIdParams = z.infer<typeof ZDatasetIdParams>;

export const ZUpsertDatasetBody = z.object({
  traceFunctionKey: nonBlank(500),
  name: nonBlank(500),
  /** Absent keeps the current description; "" (or null) clears it (docs/api/datasets.md, "POST /api/sdk/datasets"). */
  description: z.string().max(20_000, "must be at most 20000 characters").nullable().optional(),
});
export type TUpsertDatasetBody = z.infer<typeof ZUpsertDatasetBody>;

export const ZListDatasetsQuery = z.object({
  traceFunctionKey: z.string().min(1).max(500).optional(),
  limit: queryInt(1, 100).optional(),
  cursor: z.string().min(1).max(2000).optional(),
});
export type TListDatasetsQuery = z.infer<typeof ZListDatasetsQuery>;

export const ZListDatasetTracesQuery = z.object({
  limit: queryInt(1, 100).optional(),
  cursor: z.string().min(1).max(2000).optional(),
});
export type TListDatasetTracesQuery = z.infer<typeof ZListDatasetTracesQuery>;

export const ZTraceIdsBody = z.object({ traceIds: z.array(ZLookupId).min(1, "must hold 1 to 100 ids").max(100, "must hold 1 to 100 ids") });
export const ZGraderIdsBody = z.object({ graderIds: z.array(ZLookupId).min(1, "must hold 1 to 100 ids").max(100, "must hold 1 to 100 ids") });

// ─── Responses ──────────────────────────────────────────────────────────────

export const ZDataset = z.object({
  id: z.string(),
  traceFunctionKey: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  traceCount: z.number().int(),
  graders: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TDataset = z.infer<typeof ZDataset>;

export const ZUpsertDatasetResponse = z.object({ dataset: ZDataset, created: z.boolean() });
export const ZGetDatasetResponse = z.object({ dataset: ZDataset });
export const ZListDatasetsResponse = z.object({
  datasets: z.array(ZDataset),
  nextCursor: z.string().nullable().optional(),
  hasMore: z.boolean().optional(),
});
export type TListDatasetsResponse = z.infer<typeof ZListDatasetsResponse>;

export const ZDatasetTraceIdsResponse = z.object({
  datasetId: z.string(),
  traceIds: z.array(z.string()),
  nextCursor: z.string().nullable().optional(),
  hasMore: z.boolean().optional(),
});
export type TDatasetTraceIdsResponse = z.infer<typeof ZDatasetTraceIdsResponse>;

export const ZAddTracesResponse = z.object({
  dataset: ZDataset,
  addedTraceIds: z.array(z.string()),
  alreadyPresentTraceIds: z.array(z.string()),
  skippedTraceIds: z.array(z.string()),
});
export const ZRemoveTracesResponse = z.object({
  dataset: ZDataset,
  removedTraceIds: z.array(z.string()),
  notPresentTraceIds: z.array(z.string()),
});
export const ZAddGradersResponse = z.object({
  dataset: ZDataset,
  addedGraderIds: z.array(z.string()),
  alreadyAssignedGraderIds: z.array(z.string()),
  skippedGraderIds: z.array(z.string()),
});
export const ZRemoveGradersResponse = z.object({
  dataset: ZDataset,
  removedGraderIds: z.array(z.string()),
  notAssignedGraderIds: z.array(z.string()),
});
