// The spans of one trace with their content, in start order, at most `limit` (the get_traces tool's read).
import type { DbClient } from "../db/client.ts";
import { spanSelect } from "./spans.queries.ts";

export function selectTraceSpans(db: DbClient, organizationId: string, traceId: string, limit: number) {
  return db.prisma.span.findMany({
    where: { organizationId, traceId },
    take: limit,
    orderBy: [{ startedAt: { sort: "asc", nulls: "last" } }, { createdAt: "asc" }, { id: "asc" }],
    select: spanSelect,
  });
}
