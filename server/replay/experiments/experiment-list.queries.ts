// Reads of experiments (test runs) for the console: a keyset page, details, item and replay-trace counts,
// and one page of items with their replay traces. Every query filters by organization (items through their
// experiment, whose organization the caller has checked).
import type { DbClient } from "../../db/client.ts";
import { join, sql, type Sql } from "../../db/sql.ts";
import { runTraceSelect } from "./run-traces.queries.ts";

export const experimentDetailSelect = {
  id: true,
  name: true,
  notes: true,
  traceFunctionKey: true,
  status: true,
  attempts: true,
  judgeAssertions: true,
  graderIds: true,
  datasetIds: true,
  plannedTraceCount: true,
  createdAt: true,
  completedAt: true,
  experimentGroupId: true,
  gitBranch: true,
  commitSha: true,
} as const;

export interface TExperimentFilter {
  traceFunctionKey?: string;
  datasetId?: string;
  /** The git branch the SDK recorded in the experiment's metadata (gitBranch, git_branch or branch). */
  gitBranch?: string;
}

/**
 * Ids of one page of experiments, newest first (created_at DESC, id DESC). Raw SQL so the keyset compares
 * created_at at full microsecond precision, which a JavaScript Date would truncate.
 */
export function selectExperimentPage(
  db: DbClient,
  organizationId: string,
  after: { createdUs: string; id: string } | undefined,
  take: number,
  filter: TExperimentFilter = {},
) {
  const where: Sql[] = [sql`organization_id = ${organizationId}::uuid`];
  if (filter.traceFunctionKey !== undefined) where.push(sql`trace_function_key = ${filter.traceFunctionKey}`);
  if (filter.datasetId !== undefined) where.push(sql`dataset_ids @> jsonb_build_array(${filter.datasetId}::text)`);
  if (filter.gitBranch !== undefined) {
    where.push(sql`COALESCE(git_branch, metadata ->> 'gitBranch', metadata ->> 'git_branch', metadata ->> 'branch') = ${filter.gitBranch}`);
  }
  if (after) {
    const at = sql`(TIMESTAMPTZ 'epoch' + ${after.createdUs}::bigint * INTERVAL '1 microsecond')`;
    where.push(sql`(created_at < ${at} OR (created_at = ${at} AND id < ${after.id}::uuid))`);
  }
  return db.sql.query<{ id: string; created_us: string }>(sql`
    SELECT id::text AS id, (EXTRACT(EPOCH FROM created_at) * 1000000)::bigint::text AS created_us
    FROM experiments
    WHERE ${join(where, " AND ")}
    ORDER BY created_at DESC, id DESC
    LIMIT ${take}`);
}

export function selectExperiments(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.experiment.findMany({ where: { organizationId, id: { in: ids } }, select: experimentDetailSelect });
}
export type TExperimentDetailRow = Awaited<ReturnType<typeof selectExperiments>>[number];

export async function countItems(db: DbClient, organizationId: string, ids: string[]): Promise<Map<string, number>> {
  const rows = await db.prisma.experimentItem.groupBy({
    by: ["experimentId"],
    where: { experimentId: { in: ids }, experiment: { organizationId } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.experimentId, r._count._all]));
}

/** Non-dropped replay traces per experiment (traces.test_run_id), and how many of them completed. */
export async function countRunTraces(db: DbClient, organizationId: string, ids: string[]) {
  const rows = await db.prisma.trace.groupBy({
    by: ["testRunId", "status"],
    where: { organizationId, testRunId: { in: ids }, dropped: false },
    _count: { _all: true },
  });
  const counts = new Map<string, { total: number; completed: number }>();
  for (const r of rows) {
    const c = counts.get(r.testRunId!) ?? { total: 0, completed: 0 };
    c.total += r._count._all;
    if (r.status === "completed") c.completed += r._count._all;
    counts.set(r.testRunId!, c);
  }
  return counts;
}

/** Items after a position, in selection order (the caller has checked the experiment is the organization's). */
export function selectItemPage(db: DbClient, organizationId: string, experimentId: string, afterPosition: number | undefined, take: number) {
  return db.prisma.experimentItem.findMany({
    where: { experimentId, experiment: { organizationId }, ...(afterPosition !== undefined ? { position: { gt: afterPosition } } : {}) },
    select: { originalTraceId: true, position: true },
    orderBy: { position: "asc" },
    take,
  });
}

/** The run's non-dropped replay traces of the given originals, by attempt then arrival. */
export function selectReplaysOf(db: DbClient, organizationId: string, experimentId: string, originalTraceIds: string[]) {
  return db.prisma.trace.findMany({
    where: { organizationId, testRunId: experimentId, originalTraceId: { in: originalTraceIds }, dropped: false },
    select: runTraceSelect,
    orderBy: [{ replayAttempt: "asc" }, { createdAt: "asc" }, { id: "asc" }],
  });
}
