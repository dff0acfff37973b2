// Dataset use cases (docs/api/datasets.md): upsert by (traceFunctionKey, name), read, list with
// keyset paging. Membership changes live in dataset-members.service.ts.
import { recordAuditEvents } from "../auth/audit/audit.service.ts";
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";
import type { Database } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { isUuid } from "../ids.ts";
import { decodeCursor, encodeCursor } from "../shared/cursor.ts";
import * as q from "./datasets.queries.ts";
import type { DatasetKey, DatasetRow } from "./datasets.queries.ts";
import type { TDataset, TListDatasetsQuery, TListDatasetsResponse, TUpsertDatasetBody } from "./datasets.schemas.ts";

/** Page size when a cursor comes without a limit (docs/api/datasets.md, "GET /api/sdk/datasets"). */
const DEFAULT_PAGE = 100;

export async function upsertDataset(db: Database, organizationId: string, actor: TAuditActor, input: TUpsertDatasetBody) {
  const keepDescription = input.description === undefined;
  // "" clears the description (docs/api/datasets.md, "POST /api/sdk/datasets"); store no description rather than an
  // empty one.
  const description = input.description ? input.description : null;
  const key = { organizationId, traceFunctionKey: input.traceFunctionKey, name: input.name };
  const { id, created } = await db.transaction(async (tx) => {
    const [before] = await q.selectDatasetRows(tx, key);
    const row = await q.upsertDatasetRow(tx, { ...key, description, keepDescription });
    const after = keepDescription ? (before?.description ?? null) : description;
    if (!before || before.description !== after) {
      await recordAuditEvents(tx, organizationId, actor, [{
        kind: before ? "dataset.updated" : "dataset.created",
        targetType: "dataset",
        targetId: row.id,
        before: before ? datasetAudit(before) : null,
        after: { traceFunctionKey: input.traceFunctionKey, name: input.name, description: after },
      }]);
    }
    return row;
  });
  return { dataset: await getDataset(db, organizationId, id), created };
}

/** What the audit log keeps of a dataset's own fields (its members are recorded as they change). */
const datasetAudit = (r: { traceFunctionKey: string; name: string; description: string | null }) =>
  ({ traceFunctionKey: r.traceFunctionKey, name: r.name, description: r.description });

/**
 * Creates a dataset; an existing (traceFunctionKey, name) is a conflict, never overwritten (the console's "New
 * dataset"; REST keeps its upsert, docs/api/datasets.md).
 */
export async function createDataset(db: Database, organizationId: string, actor: TAuditActor, input: TUpsertDatasetBody): Promise<TDataset> {
  const fields = { traceFunctionKey: input.traceFunctionKey, name: input.name, description: input.description ? input.description : null };
  const id = await db.transaction(async (tx) => {
    const created = await q.insertDatasetRow(tx, { organizationId, ...fields });
    if (!created) throw new AppError("conflict", `A dataset named "${input.name}" already exists for trace function "${input.traceFunctionKey}".`);
    await recordAuditEvents(tx, organizationId, actor, [{ kind: "dataset.created", targetType: "dataset", targetId: created, before: null, after: fields }]);
    return created;
  });
  return getDataset(db, organizationId, id);
}

/** One dataset of the organization; another organization's id (or a malformed one) is a 404. */
export async function getDataset(db: Database, organizationId: string, id: string): Promise<TDataset> {
  const rows = isUuid(id) ? await q.selectDatasetRows(db, { organizationId, id }) : [];
  if (rows.length === 0) throw notFound("Dataset");
  return (await toDatasetResponses(db, organizationId, rows))[0];
}

/**
 * Without limit and cursor: the complete list (older clients). Otherwise a keyset page after the cursor's
 * (updated_at, id): rows inserted meanwhile sort before the cursor, so they cause neither duplicates nor
 * skips of rows that existed when paging started.
 */
export async function findDatasets(db: Database, organizationId: string, query: TListDatasetsQuery): Promise<TListDatasetsResponse> {
  const filter = { organizationId, traceFunctionKey: query.traceFunctionKey };
  if (query.limit === undefined && query.cursor === undefined) {
    return { datasets: await toDatasetResponses(db, organizationId, await q.selectDatasetRows(db, filter)) };
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const after = query.cursor ? decodeCursor(query.cursor, isDatasetKey) : undefined;
  const rows = await q.selectDatasetRows(db, { ...filter, after, limit: limit + 1 });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    datasets: await toDatasetResponses(db, organizationId, page),
    nextCursor: hasMore && last ? encodeCursor({ sortKey: last.sortKey, id: last.id }) : null,
    hasMore,
  };
}

function isDatasetKey(v: unknown): v is DatasetKey {
  const k = v as DatasetKey;
  return (
    typeof k === "object" && k !== null && typeof k.sortKey === "string" && typeof k.id === "string" &&
    isUuid(k.id) && PG_TIMESTAMPTZ.test(k.sortKey)
  );
}

/** updated_at::text as PostgreSQL prints it (DateStyle ISO), e.g. 2026-11-22 10:00:00.123456+00. */
const PG_TIMESTAMPTZ = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

async function toDatasetResponses(db: Database, organizationId: string, rows: DatasetRow[]): Promise<TDataset[]> {
  if (rows.length === 0) return [];
  const assigned = await q.findAssignedGraders(db, organizationId, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    traceFunctionKey: r.traceFunctionKey,
    name: r.name,
    description: r.description,
    traceCount: r.traceCount,
    graders: assigned.filter((a) => a.datasetId === r.id).map((a) => a.grader),
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
  }));
}
