// Span reads of the replay feature (span tree, outlines). Every query filters by organization.
import type { Prisma } from "../db/client.ts";
import { spanTimingSelect } from "../spans/spans.queries.ts";

export const outlineSpanSelect = {
  ...spanTimingSelect,
  traceId: true,
  sourceSpanId: true,
  traceFunctionKey: true,
} as const;

/** Every stored span of the given traces (outlines count and show them all). */
export function selectOutlineSpans(prisma: Prisma, organizationId: string, traceIds: string[]) {
  return prisma.span.findMany({
    where: { organizationId, traceId: { in: traceIds } },
    select: outlineSpanSelect,
  });
}
export type TOutlineSpanRow = Awaited<ReturnType<typeof selectOutlineSpans>>[number];

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
      rawSpan: withOutputs,
    },
  });
}
export type TTreeSpanRow = Awaited<ReturnType<typeof selectTreeSpans>>[number];

/** The root span of each trace (no parent), earliest first when a trace has several. */
export function selectRootSpans(prisma: Prisma, organizationId: string, traceIds: string[]) {
  return prisma.span.findMany({
    where: { organizationId, traceId: { in: traceIds }, parentSpanId: null },
    select: { id: true, traceId: true, sourceSpanId: true, startedAt: true, createdAt: true },
    orderBy: [{ startedAt: { sort: "asc", nulls: "last" } }, { createdAt: "asc" }, { id: "asc" }],
  });
}
