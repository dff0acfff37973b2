// Span read use cases shared by REST, the console and replay.
import type { Database } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { toExternalSpanResponse, toSpanResponse } from "./span-response.ts";
import * as q from "./spans.queries.ts";
import type { TExternalSpan, TSpan, TSpanSelector } from "./spans.schemas.ts";

export { toExternalSpanResponse, toSpanResponse };

/**
 * One span of a trace by canonical id, or by name and occurrence (first, last or a 0-based index in start order). An
 * unknown or foreign trace is a 404; a known trace without such a span is null (docs/api/traces.md,
 * "GET /api/sdk/traces/{traceId}/span").
 */
export async function findSpanBySelector(db: Database, organizationId: string, traceId: string, selector: TSpanSelector): Promise<TSpan | null> {
  if (!(await q.traceExists(db, organizationId, traceId))) throw notFound(`Trace ${traceId}`);
  let row: q.TSpanRow | null;
  if ("id" in selector) {
    row = await q.selectSpanInTrace(db, organizationId, traceId, selector.id);
  } else {
    const { name, occurrence } = selector;
    const fromEnd = occurrence === "last";
    const index = typeof occurrence === "number" ? occurrence : 0;
    row = await q.selectSpanByName(db, organizationId, traceId, name, index, fromEnd);
  }
  return row ? toSpanResponse(row) : null;
}

/** One span by canonical id; unknown or foreign is a 404. */
export async function getSpan(db: Database, organizationId: string, id: string): Promise<TSpan> {
  const row = await q.selectSpanById(db, organizationId, id);
  // A deleted trace's spans wait for the purge job: its trace row is gone at once, so they read as gone too.
  if (!row || !(await q.traceExists(db, organizationId, row.traceId))) throw notFound(`Span ${id}`);
  return toSpanResponse(row);
}

/** GET /externalSpans/{id}: the stored rawSpan as rawData, or only its input/output in the replay view. */
export async function getExternalSpan(db: Database, organizationId: string, id: string, view?: "replay"): Promise<TExternalSpan> {
  const row = await q.selectRawSpan(db, organizationId, id);
  if (!row || !(await q.traceExists(db, organizationId, row.traceId))) throw notFound(`Span ${id}`);
  return toExternalSpanResponse(row, view);
}
