// Reads of the traces a replay run produced (status, complete) and of the originals it replays. A replay
// trace belongs to a run through traces.test_run_id, which ingestion sets from the testRunId/experimentId the
// SDK sends on every replay span and completion (docs/replay.md, "Replay traces"). Every query filters by organization.
import type { DbClient } from "../../db/client.ts";

export const runTraceSelect = {
  id: true,
  sourceTraceId: true,
  name: true,
  status: true,
  traceFunctionKey: true,
  originalTraceId: true,
  replayAttempt: true,
  startedAt: true,
  endedAt: true,
  createdAt: true,
} as const;

/** The run's non-dropped replay traces, in arrival order (a stable order keeps complete's answer stable). */
export function selectRunTraces(db: DbClient, organizationId: string, experimentId: string) {
  return db.prisma.trace.findMany({
    where: { organizationId, testRunId: experimentId, dropped: false },
    select: runTraceSelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}
export type TRunTraceRow = Awaited<ReturnType<typeof selectRunTraces>>[number];

/** Traces by id (the originals of a run); ids of other organizations simply do not come back. */
export function selectTracesById(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.trace.findMany({ where: { organizationId, id: { in: ids } }, select: runTraceSelect });
}

/** How many final spans (final payload stored, docs/api/ingestion.md, "Completion") each trace has. */
export async function countFinalSpans(db: DbClient, organizationId: string, traceIds: string[]): Promise<Map<string, number>> {
  if (traceIds.length === 0) return new Map();
  const rows = await db.prisma.span.groupBy({
    by: ["traceId"],
    where: { organizationId, traceId: { in: traceIds }, isFinal: true },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.traceId, r._count._all]));
}
