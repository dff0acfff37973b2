// The console's trace page read model: the spans of one trace with what the waterfall shows (no content),
// and the organization's trace function keys for the list filters. Every query filters by organization.
import type { Prisma } from "../db/client.ts";
import { spanTimingSelect } from "../spans/spans.queries.ts";

export function selectWaterfallSpans(prisma: Prisma, organizationId: string, traceId: string) {
  return prisma.span.findMany({
    where: { organizationId, traceId },
    select: { ...spanTimingSelect, instrumentation: true, isFinal: true },
  });
}
export type TWaterfallSpanRow = Awaited<ReturnType<typeof selectWaterfallSpans>>[number];

export async function selectTraceFunctionKeys(prisma: Prisma, organizationId: string) {
  const rows = await prisma.trace.groupBy({
    by: ["traceFunctionKey"],
    where: { organizationId, traceFunctionKey: { not: null }, dropped: false },
    orderBy: { traceFunctionKey: "asc" },
    take: 1000,
  });
  return rows.flatMap((r) => (r.traceFunctionKey ? [r.traceFunctionKey] : []));
}
