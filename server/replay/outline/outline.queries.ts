// Span reads of trace outlines. Every query filters by organization.
import type { DbClient } from "../../db/client.ts";
import { spanTimingSelect } from "../../spans/spans.queries.ts";

export const outlineSpanSelect = {
  ...spanTimingSelect,
  traceId: true,
  sourceSpanId: true,
  traceFunctionKey: true,
} as const;

/** Every stored span of the given traces (outlines count and show them all). */
export function selectOutlineSpans(db: DbClient, organizationId: string, traceIds: string[]) {
  return db.prisma.span.findMany({
    where: { organizationId, traceId: { in: traceIds } },
    select: outlineSpanSelect,
  });
}
export type TOutlineSpanRow = Awaited<ReturnType<typeof selectOutlineSpans>>[number];
