// Span content as agents read it: every span of a trace, and one field of one span. Besides the fields of
// the span read (input, output, contexts, prompt, metadata, errors), an LLM span's span_data may carry its
// `reasoning` and message `content`; both are exposed here.
import type { Database } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { spanDataOf, toSpanResponse } from "./span-response.ts";
import type { TSpan, TSpanSelector } from "./spans.schemas.ts";
import { findSpanBySelector } from "./spans.service.ts";
import * as q from "./trace-spans.queries.ts";
import { selectSpanInTrace, traceExists } from "./spans.queries.ts";

export type TSpanContent = TSpan & { reasoning: unknown; content: unknown };

export const SPAN_FIELDS = ["input", "output", "reasoning", "content", "errors", "contexts", "prompt", "metadata"] as const;
export type TSpanField = (typeof SPAN_FIELDS)[number];

function withContent(row: Parameters<typeof toSpanResponse>[0]): TSpanContent {
  const data = spanDataOf(row.rawSpan);
  return { ...toSpanResponse(row), reasoning: data.reasoning ?? null, content: data.content ?? null };
}

/**
 * How many spans of one trace an agent's read carries (docs/mcp.md, "Tools"): an agent loop's trace can
 * hold 100,000 spans, whose content would not fit the server's memory, let alone an agent's context.
 */
export const TRACE_SPANS_READ_MAX = 2000;

/** The trace's spans in start order, the first TRACE_SPANS_READ_MAX; an unknown or foreign trace is a 404. */
export async function findTraceSpans(db: Database, organizationId: string, traceId: string, limit = TRACE_SPANS_READ_MAX): Promise<TSpanContent[]> {
  if (!(await traceExists(db, organizationId, traceId))) throw notFound(`Trace ${traceId}`);
  return (await q.selectTraceSpans(db, organizationId, traceId, limit)).map(withContent);
}

/** One field of one span (by id, or by name and occurrence); a missing trace or span is a 404. */
export async function getSpanField(db: Database, organizationId: string, traceId: string, selector: TSpanSelector, field: TSpanField) {
  let span: TSpanContent | null;
  if ("id" in selector) {
    if (!(await traceExists(db, organizationId, traceId))) throw notFound(`Trace ${traceId}`);
    const row = await selectSpanInTrace(db, organizationId, traceId, selector.id);
    span = row ? withContent(row) : null;
  } else {
    const found = await findSpanBySelector(db, organizationId, traceId, selector);
    const row = found ? await selectSpanInTrace(db, organizationId, traceId, found.id) : null;
    span = row ? withContent(row) : null;
  }
  if (!span) throw notFound(`Span ${"id" in selector ? selector.id : `named ${JSON.stringify(selector.name)}`} in trace ${traceId}`);
  return { span, value: span[field] };
}
