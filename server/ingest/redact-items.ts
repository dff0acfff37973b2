// Redaction at ingestion (docs/operations.md, "Redaction"): every door's items pass through here before the
// write plan is built, so nothing a rule masks is ever written, and every door gives the same result. What the
// rules changed is counted on the span, as a server note under the step `redaction` (its `errors`).
import type { Database } from "../db.ts";
import { getRedactor } from "../redaction/redaction.service.ts";
import { describeCounts, type Redactor, type TRedactionCounts } from "../redaction/redactor.ts";
import type { TIngestItem } from "./ingest.schemas.ts";

/** Payload fields that carry identities, kinds and versions, never content: left as sent. */
const PAYLOAD_KEEP = new Set([
  "id", "traceId", "sourceTraceId", "type", "source", "sdkVersion", "traceFunctionKey", "rootTraceFunctionKey",
  "testRunId", "experimentId", "functionId", "mocked", "mockSource", "expectedSpanCount", "completed", "rawSpan", "externalTrace",
]);
/** Span document fields that are identities or times; JSON-path rules are written from this document. */
const SPAN_KEEP = new Set(["id", "trace_id", "parent_id", "started_at", "ended_at", "input_source_span_id"]);
/** The same in a completion's trace document. */
const TRACE_KEEP = new Set(["id", "started_at", "ended_at"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Applies the organization's rules to the items in place; without rules it costs a cache lookup. */
export async function redactIngestItems(db: Database, organizationId: string, items: TIngestItem[]): Promise<void> {
  const redactor = await getRedactor(db, organizationId);
  if (!redactor) return;
  for (const item of items) redactItem(redactor, item);
}

function redactItem(redactor: Redactor, item: TIngestItem): void {
  const counts: TRedactionCounts = new Map();
  redactPayload(redactor, item.raw, counts);
  // Nothing matched in the document as sent: its typed copy, read from it, holds nothing to mask either.
  if (counts.size === 0) return;
  // The typed copy the write reads its columns from: the same rules, counted once (on the document as sent).
  redactPayload(redactor, item.payload as unknown as Record<string, unknown>, new Map());
  if (item.operation === "external_span") {
    // The text as sent held what was masked: the write must serialize the redacted document instead.
    delete item.text;
    // Written again (a span isolated after a refused batch): one note, not two.
    item.notes = item.notes.filter((n) => n.step !== "redaction");
    item.notes.push({ source: "server", step: "redaction", error: describeCounts(counts, redactor.version) });
  }
}

function redactPayload(redactor: Redactor, payload: Record<string, unknown>, counts: TRedactionCounts): void {
  redactor.value(payload, counts, null, PAYLOAD_KEEP);
  if (isObject(payload.rawSpan)) redactor.value(payload.rawSpan, counts, [], SPAN_KEEP);
  if (isObject(payload.externalTrace)) redactor.value(payload.externalTrace, counts, null, TRACE_KEEP);
}

/** The native door's trace fields (name, session, resource attributes), written beside the spans. */
const NATIVE_TRACE_KEEP = new Set(["id", "trace_function_key", "started_at", "ended_at"]);

export async function redactNativeTraces(db: Database, organizationId: string, traces: Iterable<Record<string, unknown>>): Promise<void> {
  const redactor = await getRedactor(db, organizationId);
  if (!redactor) return;
  for (const trace of traces) redactor.value(trace, new Map(), null, NATIVE_TRACE_KEEP);
}

/** GenAI events received as log records: their attributes and bodies, before they are stored. */
const EVENT_KEEP = new Set(["span_id", "trace_id", "event_key", "time", "seq"]);

export async function redactLogEvents(db: Database, organizationId: string, rows: Record<string, unknown>[]): Promise<void> {
  const redactor = await getRedactor(db, organizationId);
  if (!redactor) return;
  for (const row of rows) redactor.value(row, new Map(), null, EVENT_KEEP);
}
