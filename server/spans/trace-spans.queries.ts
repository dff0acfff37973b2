// Every span of one trace with its content, in start order (the get_traces tool reads them all).
import type { DbClient } from "../db/client.ts";
import { spanSelect } from "./spans.queries.ts";

export function selectTraceSpans(db: DbClient, organizationId: string, traceId: string) {
  return db.prisma.span.findMany({
    where: { organizationId, traceId },
    orderBy: [{ startedAt: { sort: "asc", nulls: "last" } }, { createdAt: "asc" }, { id: "asc" }],
    select: spanSelect,
  });
}
