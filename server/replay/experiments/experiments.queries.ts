// Experiments (test runs) and their items: the only place the replay feature writes. Every query filters by
// organization; another organization's experiment reads as absent.
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";

export const experimentSelect = {
  id: true,
  traceFunctionKey: true,
  status: true,
  graderIds: true,
  datasetIds: true,
  attempts: true,
  judgeAssertions: true,
  completedAt: true,
  experimentGroupId: true,
} as const;

export function selectExperiment(db: DbClient, organizationId: string, id: string) {
  return db.prisma.experiment.findFirst({ where: { organizationId, id }, select: experimentSelect });
}
export type TExperimentRow = NonNullable<Awaited<ReturnType<typeof selectExperiment>>>;

export interface NewExperiment {
  id: string;
  organizationId: string;
  name: string | null;
  notes: string | null;
  traceFunctionKey: string;
  selection: object;
  graderIds: string[];
  datasetIds: string[];
  attempts: number;
  judgeAssertions: boolean;
  metadata: object;
  codeChange: object | null;
  createdByUserId: string;
  experimentGroupId: string | null;
  gitBranch: string | null;
  commitSha: string | null;
}

/** The experiment and its items; call it in a transaction, so a run never exists without the traces it replays. */
export async function insertExperiment(tx: DbClient, e: NewExperiment, originalTraceIds: string[]) {
  await tx.prisma.experiment.create({
    data: { ...e, codeChange: e.codeChange ?? undefined, plannedTraceCount: originalTraceIds.length * e.attempts },
    select: { id: true },
  });
  await tx.prisma.experimentItem.createMany({
    data: originalTraceIds.map((originalTraceId, position) => ({ organizationId: e.organizationId, experimentId: e.id, originalTraceId, position })),
  });
}

export async function selectItemTraceIds(db: DbClient, experimentId: string): Promise<string[]> {
  const rows = await db.prisma.experimentItem.findMany({
    where: { experimentId },
    select: { originalTraceId: true },
    orderBy: { position: "asc" },
  });
  return rows.map((r) => r.originalTraceId);
}

/**
 * Marks the run completed; a re-completion keeps the first completion time (idempotent, docs/replay.md, "Complete").
 * Raw SQL on the caller's transaction, so the run's evaluation jobs commit with it. The time is a parameter: Citus
 * refuses now() inside COALESCE (docs/operations.md, "Citus").
 */
export async function markCompleted(db: DbClient, organizationId: string, id: string): Promise<void> {
  await db.sql.query(sql`UPDATE experiments SET status = 'completed', completed_at = COALESCE(completed_at, ${new Date().toISOString()}::timestamptz)
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

/** Edits name, notes, group or graders of an experiment of the organization; false when there is none. */
export async function updateExperiment(
  db: DbClient,
  organizationId: string,
  id: string,
  data: { name?: string | null; notes?: string | null; experimentGroupId?: string | null; graderIds?: string[] },
): Promise<boolean> {
  const res = await db.prisma.experiment.updateMany({ where: { organizationId, id }, data });
  return res.count > 0;
}

/** Experiment ids of the organization among `ids`. */
export async function selectExistingExperimentIds(db: DbClient, organizationId: string, ids: string[]) {
  const rows = await db.prisma.experiment.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export async function setExperimentsGroup(db: DbClient, organizationId: string, ids: string[], experimentGroupId: string) {
  await db.prisma.experiment.updateMany({ where: { organizationId, id: { in: ids } }, data: { experimentGroupId } });
}

/** Ids of a group's experiments, newest first. */
export async function selectGroupExperimentIds(db: DbClient, organizationId: string, experimentGroupId: string) {
  const rows = await db.prisma.experiment.findMany({
    where: { organizationId, experimentGroupId },
    select: { id: true, graderIds: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows;
}

export async function countGroupExperiments(db: DbClient, organizationId: string, groupIds: string[]) {
  const rows = await db.prisma.experiment.groupBy({ by: ["experimentGroupId"], where: { organizationId, experimentGroupId: { in: groupIds } }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.experimentGroupId!, r._count._all]));
}
