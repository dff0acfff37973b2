// Span reads of GET /api/sdk/replay/spanTree. Every query filters by organization.
import type { Prisma } from "../../db/client.ts";

export function selectSpanTrace(prisma: Prisma, organizationId: string, id: string) {
  return prisma.span.findUnique({ where: { organizationId_id: { organizationId, id } }, select: { traceId: true } });
}

/** The spans of one trace with what a span tree node shows; rawSpan only when outputs are wanted. */
export function selectTreeSpans(prisma: Prisma, organizationId: string, traceId: string, withOutputs: boolean) {
  return prisma.span.findMany({
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
