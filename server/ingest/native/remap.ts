// Maps stored native spans again with the GenAI events received for them as log records (docs/otel.md):
// events and spans travel through different exporters, so either may arrive first. Both doors call
// this after committing, so whichever commits last sees the other: no event is left unmapped.
import type { TAuthContext } from "../../auth/auth.schemas.ts";
import type { Database } from "../../db.ts";
import { ingestBatch } from "../ingest.service.ts";
import { selectEvents, selectStoredOtelSpans, type TEventRow, type TStoredOtelSpan } from "./events.queries.ts";
import { recordNativeTraces } from "./native.queries.ts";
import type { TOtelEvent, TOtelSpan } from "./otel-span.ts";
import { toNativeItems } from "./to-items.ts";

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Stored events by canonical span id. */
export async function loadLogEvents(db: Database, organizationId: string, spanIds: string[]): Promise<{ bySpan: Map<string, TOtelEvent[]>; keys: Set<string> }> {
  const rows = await selectEvents(db.sql, organizationId, spanIds);
  const bySpan = new Map<string, TOtelEvent[]>();
  for (const r of rows) bySpan.set(r.span_id, [...(bySpan.get(r.span_id) ?? []), toEvent(r)]);
  return { bySpan, keys: new Set(rows.map((r) => `${r.span_id}:${r.event_key}`)) };
}

const toEvent = (r: TEventRow): TOtelEvent => ({ name: r.name, time: r.time, attributes: r.attributes ?? {}, ...(r.body !== null && r.body !== undefined ? { body: r.body } : {}) });

/** The span as it was received, from the copy stored with it. */
function storedToSpan(row: TStoredOtelSpan): TOtelSpan | null {
  const raw = row.raw_span;
  const otel = isObject(raw.otel) ? raw.otel : null;
  if (!otel || typeof otel.trace_id !== "string" || typeof otel.span_id !== "string") return null;
  const status = isObject(otel.status) ? otel.status : {};
  const scope = isObject(otel.scope) ? otel.scope : {};
  return {
    traceId: otel.trace_id,
    spanId: otel.span_id,
    parentSpanId: typeof otel.parent_span_id === "string" ? otel.parent_span_id : null,
    remoteParent: otel.remote_parent === true,
    name: row.name,
    kind: typeof otel.kind === "number" ? otel.kind : 0,
    startTime: typeof raw.started_at === "string" ? raw.started_at : null,
    endTime: typeof raw.ended_at === "string" ? raw.ended_at : null,
    attributes: isObject(otel.attributes) ? otel.attributes : {},
    events: Array.isArray(otel.events) ? (otel.events as TOtelEvent[]) : [],
    links: Array.isArray(otel.links) ? (otel.links as TOtelSpan["links"]) : [],
    status: { code: typeof status.code === "number" ? status.code : 0, message: typeof status.message === "string" ? status.message : null },
    resource: isObject(row.resource) ? row.resource : {},
    scope: { name: typeof scope.name === "string" ? scope.name : null, version: typeof scope.version === "string" ? scope.version : null },
  };
}

/** Maps the stored spans (those that exist) again with all their events; a completed trace is amended. */
export async function remapStoredSpans(db: Database, auth: TAuthContext, spanIds: string[]): Promise<void> {
  const org = auth.organizationId;
  const stored = await selectStoredOtelSpans(db.sql, org, spanIds);
  const spans = stored.flatMap((row) => {
    const span = storedToSpan(row);
    return span ? [{ location: row.id, span }] : [];
  });
  if (spans.length === 0) return;
  const { bySpan } = await loadLogEvents(db, org, stored.map((s) => s.id));
  const { items, traces } = toNativeItems(org, spans, bySpan);
  await ingestBatch(db, auth, items, {
    afterWrite: (tx, traceIds, stamp) => recordNativeTraces(tx, org, traceIds.flatMap((id) => traces.get(id) ?? []), stamp, true),
  });
}
