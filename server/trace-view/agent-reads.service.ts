// The read models the agents' door answers with (docs/mcp.md, "Results"): traces with their spans and current
// verdict (get_traces), and search hits with theirs (search_traces). One call per tool, whatever it combines.
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { TTraceLabels } from "../labels/labels.schemas.ts";
import { findTraceLabels } from "../labels/trace-labels-read.service.ts";
import { findTraceSpans, type TSpanContent } from "../spans/trace-spans.service.ts";
import { searchTraces, type TTraceSearchHit, type TTraceSearchInput } from "../traces/search.service.ts";
import type { TTrace } from "../traces/traces.schemas.ts";
import { getTrace } from "../traces/traces.service.ts";

export interface TTraceToRead {
  trace: TTrace;
  spans: TSpanContent[];
  label: TTraceLabels | undefined;
}

/** The organization's traces among `traceIds`, in the given order, each with its spans and current verdict; the others by id. */
export async function findTracesToRead(db: Database, organizationId: string, traceIds: string[]): Promise<{ traces: TTraceToRead[]; notFoundTraceIds: string[] }> {
  const { labels } = await findTraceLabels(db, organizationId, traceIds);
  const traces: TTraceToRead[] = [];
  const notFoundTraceIds: string[] = [];
  for (const id of traceIds) {
    const trace = await getTrace(db, organizationId, id).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") return null;
      throw error;
    });
    if (!trace) {
      notFoundTraceIds.push(id);
      continue;
    }
    traces.push({ trace, spans: await findTraceSpans(db, organizationId, id), label: labels.find((l) => l.traceId === id) });
  }
  return { traces, notFoundTraceIds };
}

/**
 * searchTraces with each hit's current verdict. Reprise takes no database snapshots, so asking for traces that
 * have one (hasDbSnapshot: true) matches nothing.
 */
export async function searchTracesWithLabels(
  db: Database,
  organizationId: string,
  input: TTraceSearchInput & { hasDbSnapshot?: boolean },
): Promise<{ hits: TTraceSearchHit[]; labels: TTraceLabels[] }> {
  const hits = input.hasDbSnapshot === true ? [] : await searchTraces(db, organizationId, input);
  const labels = hits.length ? (await findTraceLabels(db, organizationId, hits.map((h) => h.trace.id))).labels : [];
  return { hits, labels };
}
