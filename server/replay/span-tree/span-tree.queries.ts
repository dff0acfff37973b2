// Span reads of GET /api/sdk/replay/spanTree. Every query filters by organization.
import type { DbClient } from "../../db/client.ts";

export function selectSpanTrace(db: DbClient, organizationId: string, id: string) {
  return db.prisma.span.findUnique({ where: { organizationId_id: { organizationId, id } }, select: { traceId: true } });
}

/** The spans of one trace with what a span tree node shows; rawSpan only when outputs are wanted. */
export function selectTreeSpans(db: DbClient, organizationId: string, traceId: string, withOutputs: boolean) {
  return db.prisma.span.findMany({
    where: { organizationId, traceId },
    select: {
      id: true,
      parentSpanId: true,
      sourceSpanId: true,
      name: true,
      type: true,
      traceFunctionKey: true,
      startedAt: true,
      createdAt: true,
      error: true,
      errors: true,
      contentOffBySimulationPlan: true,
      payloadType: true,
      rawSpan: withOutputs,
    },
  });
}
export type TTreeSpanRow = Awaited<ReturnType<typeof selectTreeSpans>>[number];
