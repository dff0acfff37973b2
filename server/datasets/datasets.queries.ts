// The only database access of the dataset feature. Prisma for CRUD; raw SQL for the upsert (a set-based
// ON CONFLICT tells created from updated atomically), the row lock, and the keyset page, whose sort key
// must keep updated_at's microseconds (a JS Date would round them and skip or repeat rows).
import type { DbClient } from "../db/client.ts";
import { empty, sql } from "../db/sql.ts";
import { newId } from "../ids.ts";

export interface DatasetRow {
  id: string;
  traceFunctionKey: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** updated_at as PostgreSQL text, full precision: the keyset sort key. */
  sortKey: string;
  traceCount: number;
}

export interface DatasetKey {
  sortKey: string;
  id: string;
}

/**
 * One statement, so concurrent calls for one (traceFunctionKey, name) end with one row: the losers of the
 * insert race update the winner's row. `xmax = 0` is true only for a freshly inserted row. The time is a
 * parameter: Citus refuses now() inside ON CONFLICT … DO UPDATE (docs/operations.md, "Citus").
 */
export async function upsertDatasetRow(
  db: DbClient,
  input: { organizationId: string; traceFunctionKey: string; name: string; description: string | null; keepDescription: boolean },
): Promise<{ id: string; created: boolean }> {
  const now = new Date().toISOString();
  const rows = await db.sql.query<{ id: string; created: boolean }>(sql`
    INSERT INTO datasets (id, organization_id, trace_function_key, name, description, created_at, updated_at)
    VALUES (${newId()}::uuid, ${input.organizationId}::uuid, ${input.traceFunctionKey}, ${input.name}, ${input.description}, ${now}::timestamptz, ${now}::timestamptz)
    ON CONFLICT (organization_id, trace_function_key, name) DO UPDATE SET
      description = CASE WHEN ${input.keepDescription}::boolean THEN datasets.description ELSE EXCLUDED.description END,
      updated_at = EXCLUDED.updated_at
    RETURNING id, (xmax = 0) AS created`);
  return rows[0];
}

/**
 * Datasets of one organization, newest update first, ties by id ascending (docs/api/datasets.md,
 * "GET /api/sdk/datasets").
 */
export function selectDatasetRows(
  db: DbClient,
  f: { organizationId: string; id?: string; traceFunctionKey?: string; name?: string; after?: DatasetKey; limit?: number },
): Promise<DatasetRow[]> {
  const byId = f.id ? sql`AND d.id = ${f.id}::uuid` : empty;
  const byName = f.name !== undefined ? sql`AND d.name = ${f.name}` : empty;
  const byKey = f.traceFunctionKey !== undefined ? sql`AND d.trace_function_key = ${f.traceFunctionKey}` : empty;
  const after = f.after
    ? sql`AND (d.updated_at < ${f.after.sortKey}::timestamptz OR (d.updated_at = ${f.after.sortKey}::timestamptz AND d.id > ${f.after.id}::uuid))`
    : empty;
  const limit = f.limit !== undefined ? sql`LIMIT ${f.limit}` : empty;
  return db.sql.query<DatasetRow>(sql`
    SELECT d.id, d.trace_function_key AS "traceFunctionKey", d.name, d.description,
           d.created_at AS "createdAt", d.updated_at AS "updatedAt", d.updated_at::text AS "sortKey",
           (SELECT count(*) FROM dataset_traces t WHERE t.organization_id = d.organization_id AND t.dataset_id = d.id)::int AS "traceCount"
    FROM datasets d
    WHERE d.organization_id = ${f.organizationId}::uuid ${byId} ${byKey} ${byName} ${after}
    ORDER BY d.updated_at DESC, d.id ASC
    ${limit}`);
}

/** Graders assigned to the given datasets, by name. */
export function findAssignedGraders(db: DbClient, organizationId: string, datasetIds: string[]) {
  return db.prisma.datasetGrader.findMany({
    where: { organizationId, datasetId: { in: datasetIds } },
    select: { datasetId: true, grader: { select: { id: true, name: true } } },
    orderBy: [{ grader: { name: "asc" } }, { graderId: "asc" }],
  });
}

/** Locks the dataset row for a membership change, so concurrent changes of one dataset serialise. */
export async function lockDataset(
  db: DbClient,
  organizationId: string,
  id: string,
): Promise<{ id: string; traceFunctionKey: string } | undefined> {
  const rows = await db.sql.query<{ id: string; traceFunctionKey: string }>(sql`
    SELECT id, trace_function_key AS "traceFunctionKey" FROM datasets
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid FOR UPDATE`);
  return rows[0];
}

export function touchDataset(db: DbClient, organizationId: string, id: string) {
  return db.sql.query(sql`UPDATE datasets SET updated_at = now() WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

export async function datasetExists(db: DbClient, organizationId: string, id: string): Promise<boolean> {
  return (await db.prisma.dataset.count({ where: { organizationId, id } })) > 0;
}

export async function findMemberTraceIds(db: DbClient, organizationId: string, datasetId: string, f: { traceIds?: string[]; after?: string; limit?: number }) {
  const rows = await db.prisma.datasetTrace.findMany({
    where: { organizationId, datasetId, traceId: { ...(f.traceIds ? { in: f.traceIds } : {}), ...(f.after ? { gt: f.after } : {}) } },
    select: { traceId: true },
    orderBy: { traceId: "asc" },
    ...(f.limit !== undefined ? { take: f.limit } : {}),
  });
  return rows.map((r) => r.traceId);
}

/** Trace ids among `ids` that belong to the organization and the trace function. */
export async function findTraceIdsOfFunction(db: DbClient, organizationId: string, traceFunctionKey: string, ids: string[]) {
  const rows = await db.prisma.trace.findMany({
    where: { organizationId, traceFunctionKey, id: { in: ids } },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

export function insertMembers(db: DbClient, organizationId: string, datasetId: string, traceIds: string[]) {
  return db.prisma.datasetTrace.createMany({ data: traceIds.map((traceId) => ({ datasetId, organizationId, traceId })) });
}

export function deleteMembers(db: DbClient, organizationId: string, datasetId: string, traceIds: string[]) {
  return db.prisma.datasetTrace.deleteMany({ where: { organizationId, datasetId, traceId: { in: traceIds } } });
}

/** Active graders among `ids` of the organization and trace function (only these may be assigned). */
export async function findAssignableGraderIds(db: DbClient, organizationId: string, traceFunctionKey: string, ids: string[]) {
  const rows = await db.prisma.grader.findMany({
    where: { organizationId, traceFunctionKey, status: "active", id: { in: ids } },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}

export async function findAssignedGraderIds(db: DbClient, organizationId: string, datasetId: string, ids?: string[]) {
  const rows = await db.prisma.datasetGrader.findMany({
    where: { organizationId, datasetId, ...(ids ? { graderId: { in: ids } } : {}) },
    select: { graderId: true },
    orderBy: { graderId: "asc" },
  });
  return rows.map((r) => r.graderId);
}

export function insertGraderAssignments(db: DbClient, organizationId: string, datasetId: string, graderIds: string[]) {
  return db.prisma.datasetGrader.createMany({ data: graderIds.map((graderId) => ({ organizationId, datasetId, graderId })) });
}

export function deleteGraderAssignments(db: DbClient, organizationId: string, datasetId: string, graderIds: string[]) {
  return db.prisma.datasetGrader.deleteMany({ where: { organizationId, datasetId, graderId: { in: graderIds } } });
}


/** Inserts a new dataset; undefined when one of that (traceFunctionKey, name) exists already. */
export async function insertDatasetRow(
  db: DbClient,
  input: { organizationId: string; traceFunctionKey: string; name: string; description: string | null },
): Promise<string | undefined> {
  const rows = await db.sql.query<{ id: string }>(sql`
    INSERT INTO datasets (id, organization_id, trace_function_key, name, description, created_at, updated_at)
    VALUES (${newId()}::uuid, ${input.organizationId}::uuid, ${input.traceFunctionKey}, ${input.name}, ${input.description}, now(), now())
    ON CONFLICT (organization_id, trace_function_key, name) DO NOTHING
    RETURNING id`);
  return rows[0]?.id;
}

/** One page of members, most recently added first (the console's dataset page). */
export async function findMemberPage(db: DbClient, organizationId: string, datasetId: string, page: { offset: number; limit: number }) {
  const [rows, total] = await Promise.all([
    db.prisma.datasetTrace.findMany({
      where: { organizationId, datasetId },
      select: { traceId: true, addedAt: true },
      orderBy: [{ addedAt: "desc" }, { traceId: "asc" }],
      skip: page.offset,
      take: page.limit,
    }),
    db.prisma.datasetTrace.count({ where: { organizationId, datasetId } }),
  ]);
  return { rows, total };
}

/** Which of `traceIds` are members of each of the organization's datasets (for "Add to dataset"). */
export function findMembershipsOfTraces(db: DbClient, organizationId: string, traceIds: string[]) {
  return db.prisma.datasetTrace.findMany({ where: { organizationId, traceId: { in: traceIds } }, select: { datasetId: true, traceId: true } });
}
