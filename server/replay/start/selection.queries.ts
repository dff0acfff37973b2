// Reads that choose what a replay replays. Every query filters by organization.
import type { DbClient } from "../../db/client.ts";
import { empty, sql } from "../../db/sql.ts";
import { traceIsUnfaithful } from "../../traces/faithful.ts";

/**
 * The most recently started completed (or failed), non-dropped, non-replay, faithful traces of a trace function
 * (docs/replay.md, "Start: what gets replayed"; a trimmed or degraded recording is not replayed as faithful,
 * docs/sdk-transport.md rule 6), optionally only those with an active assertion. Raw SQL for the EXISTS on spans and
 * assertions, which have no Prisma relation to traces.
 */
export async function selectRecentTraceIds(
  db: DbClient,
  f: { organizationId: string; traceFunctionKey: string; limit: number; onlyWithAssertions: boolean },
): Promise<string[]> {
  const withAssertions = f.onlyWithAssertions
    ? sql`AND EXISTS (SELECT 1 FROM assertions a
        WHERE a.organization_id = t.organization_id AND a.trace_id = t.id AND a.archived_at IS NULL)`
    : empty;
  const rows = await db.sql.query<{ id: string }>(sql`
    SELECT t.id::text AS id FROM traces t
    WHERE t.organization_id = ${f.organizationId}::uuid AND t.trace_function_key = ${f.traceFunctionKey}
      AND t.status IN ('completed', 'failed') AND NOT t.dropped AND t.test_run_id IS NULL
      AND NOT ${traceIsUnfaithful("t")} ${withAssertions}
    ORDER BY t.started_at DESC NULLS LAST, t.id DESC
    LIMIT ${f.limit}`);
  return rows.map((r) => r.id);
}

export function selectTraceKeys(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.trace.findMany({
    where: { organizationId, id: { in: ids } },
    select: { id: true, traceFunctionKey: true, dropped: true },
  });
}

export function selectDatasets(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.dataset.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, traceFunctionKey: true } });
}

/** Members of the datasets that are still replayable (not dropped), ordered by dataset then trace id. */
export async function selectDatasetMembers(db: DbClient, organizationId: string, datasetIds: string[]) {
  const rows = await db.prisma.datasetTrace.findMany({
    where: { organizationId, datasetId: { in: datasetIds } },
    select: { datasetId: true, traceId: true },
    orderBy: { traceId: "asc" },
  });
  const live = await db.prisma.trace.findMany({
    where: { organizationId, id: { in: [...new Set(rows.map((r) => r.traceId))] }, dropped: false },
    select: { id: true },
  });
  const liveIds = new Set(live.map((t) => t.id));
  return rows.filter((r) => liveIds.has(r.traceId));
}

export function selectGraders(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.grader.findMany({
    where: { organizationId, id: { in: ids } },
    select: { id: true, traceFunctionKey: true, status: true },
  });
}

/** The active graders assigned to the datasets: their runnable graders (docs/replay.md, "Start: what gets replayed"). */
export async function selectActiveDatasetGraderIds(db: DbClient, organizationId: string, datasetIds: string[]) {
  const rows = await db.prisma.datasetGrader.findMany({
    where: { datasetId: { in: datasetIds }, grader: { organizationId, status: "active" } },
    select: { graderId: true },
    orderBy: { graderId: "asc" },
  });
  return rows.map((r) => r.graderId);
}

/** Which of the traces have at least one active (not archived) assertion. */
export async function selectTraceIdsWithAssertions(db: DbClient, organizationId: string, traceIds: string[]) {
  const rows = await db.prisma.assertion.findMany({
    where: { organizationId, traceId: { in: traceIds }, archivedAt: null },
    select: { traceId: true },
    distinct: ["traceId"],
  });
  return new Set(rows.map((r) => r.traceId));
}

/** What a replay item tells about its original trace. */
export function selectItemTraces(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.trace.findMany({
    where: { organizationId, id: { in: ids } },
    select: { id: true, ingestionType: true, metadata: true, startedAt: true, endedAt: true },
  });
}

/** The root span of each trace (no parent), earliest first when a trace has several. */
export function selectRootSpans(db: DbClient, organizationId: string, traceIds: string[]) {
  return db.prisma.span.findMany({
    where: { organizationId, traceId: { in: traceIds }, parentSpanId: null },
    select: { id: true, traceId: true, sourceSpanId: true, startedAt: true, createdAt: true },
    orderBy: [{ startedAt: { sort: "asc", nulls: "last" } }, { createdAt: "asc" }, { id: "asc" }],
  });
}
