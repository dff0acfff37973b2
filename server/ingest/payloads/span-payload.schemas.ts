// The external_span payload (docs/api/ingestion.md, "Span payload"): body of POST /api/sdk/externalSpans and of an
// `external_span` carrier. Lenient where SDKs vary: explicit nulls are accepted (the docs show
// `parent_id: null`), unknown keys are allowed. The schema only validates; what is stored verbatim is
// the original parsed object, because zod's copies drop `__proto__` keys.
import { z } from "zod";

export const ZOptionalString = z.string().nullish();

/** `rawSpan.span_origin` (docs/api/ingestion.md, "Span payload"). */
export const ZSpanOrigin = z.looseObject({
  name: ZOptionalString,
  version: ZOptionalString,
  instrumentation: z.looseObject({ name: ZOptionalString }).nullish(),
});

/**
 * `rawSpan.span_data` (docs/api/traces.md, "Span object"): content fields are any JSON; name and type are coerced
 * later.
 */
export const ZSpanData = z.looseObject({
  name: z.unknown().optional(),
  type: z.unknown().optional(),
  function_name: z.unknown().optional(),
  error: z.unknown().optional(),
  contexts: z.unknown().optional(),
  content_off_by_simulation_plan: z.unknown().optional(),
});

export const ZRawSpan = z.looseObject({
  id: z.string().min(1, "must be a non-empty span id").nullish(),
  trace_id: ZOptionalString,
  parent_id: ZOptionalString,
  started_at: ZOptionalString,
  ended_at: ZOptionalString,
  span_data: ZSpanData.nullish(),
  span_origin: ZSpanOrigin.nullish(),
  input_source_span_id: ZOptionalString,
  // OpenAI Agents spans carry `error` as an object (docs/api/ingestion.md: `rawSpan.error.message`).
  error: z.unknown().optional(),
});

export const ZExternalSpanPayload = z
  .looseObject({
    type: ZOptionalString,
    source: ZOptionalString,
    sourceTraceId: ZOptionalString,
    traceId: ZOptionalString,
    id: ZOptionalString,
    traceFunctionKey: ZOptionalString,
    rootTraceFunctionKey: ZOptionalString,
    sdkVersion: ZOptionalString,
    testRunId: ZOptionalString,
    experimentId: ZOptionalString,
    mocked: z.boolean().nullish(),
    mockTarget: ZOptionalString,
    mockSource: ZOptionalString,
    errors: z.array(z.unknown()).nullish(),
    rawSpan: ZRawSpan,
  })
  .superRefine((p, ctx) => {
    // The trace and span ids may come from the top level (Go) or from rawSpan (every SDK).
    if (!(p.sourceTraceId || p.traceId || p.rawSpan.trace_id)) {
      ctx.addIssue({ code: "custom", path: ["sourceTraceId"], message: "is required (or rawSpan.trace_id)" });
    }
    if (!(p.rawSpan.id || p.id)) {
      ctx.addIssue({ code: "custom", path: ["rawSpan", "id"], message: "is required" });
    }
  });
export type TExternalSpanPayload = z.infer<typeof ZExternalSpanPayload>;
