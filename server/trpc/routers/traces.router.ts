// traces.*: the console's trace list and trace page, wiring over the trace, span, label, grader-label and
// assertion services (the same functions the REST API calls) plus the console's waterfall read model.
import { getTraceAssertions } from "../../assertions/assertions.service.ts";
import { notFound } from "../../errors.ts";
import { findGraderLabels } from "../../labels/grader-labels.service.ts";
import { findTraceLabels } from "../../labels/trace-labels-read.service.ts";
import { findSpanBySelector, getExternalSpan } from "../../spans/spans.service.ts";
import { findVerdictRecords } from "../../labels/verdicts.service.ts";
import { findTraceChanges, findTraceFunctionKeys, findTracePreviews, findWaterfallWindow, getTraceWithWaterfall, searchWaterfall } from "../../trace-view/trace-view.service.ts";
import { ZConsoleTraceListInput, ZSpanInput, ZTraceChangesInput, ZTraceIdInput, ZTraceQueueInput, ZWaterfallInput, ZWaterfallSearchInput } from "../../trace-view/trace-view.schemas.ts";

/** The waterfall rows the trace page's first answer carries; the console reads the rest a window at a time. */
const FIRST_WINDOW = 500;
import { toJsonText } from "../json-text.ts";
import { protectedProcedure, router } from "../init.ts";
import { countTraces, findTraceQueue, findTraces } from "../../traces/traces.service.ts";

export const tracesRouter = router({
  list: protectedProcedure.input(ZConsoleTraceListInput).query(async ({ ctx, input }) => {
    const org = ctx.auth.organizationId;
    const filters = consoleFilters(input);
    const [page, total] = await Promise.all([findTraces(ctx.db, org, filters), countTraces(ctx.db, org, filters)]);
    const ids = page.traces.map((t) => t.id);
    const [labels, previews, live] = await Promise.all([
      ids.length ? findTraceLabels(ctx.db, org, ids).then((r) => r.labels) : [],
      findTracePreviews(ctx.db, org, ids),
      findTraceChanges(ctx.db, org, ids),
    ]);
    const byTrace = new Map(labels.map((l) => [l.traceId, l]));
    return {
      ...page,
      total,
      /** What `changes` answered when this page was read: the page reads again when a poll answers otherwise. */
      live,
      traces: page.traces.map((t) => ({ ...t, verdict: byTrace.get(t.id) ?? null, preview: previews.get(t.id) ?? null })),
    };
  }),

  /** Every matching trace id, in list order: the labelling queue (docs/api/console.md "Labelling queue"). */
  queue: protectedProcedure
    .input(ZTraceQueueInput)
    .query(({ ctx, input }) => findTraceQueue(ctx.db, ctx.auth.organizationId, consoleFilters(input))),

  /**
   * The live poll of the trace list and the trace page: one cheap statement (docs/api/console.md, "Live lists and
   * pages"); a page compares the answer with the `live` its last read returned.
   */
  changes: protectedProcedure.input(ZTraceChangesInput).query(({ ctx, input }) => findTraceChanges(ctx.db, ctx.auth.organizationId, input.traceIds)),

  functionKeys: protectedProcedure.query(({ ctx }) => findTraceFunctionKeys(ctx.db, ctx.auth.organizationId)),

  get: protectedProcedure.input(ZTraceIdInput).query(async ({ ctx, input }) => {
    const org = ctx.auth.organizationId;
    // All at once: each read is scoped to the organization, and the trace's 404 (another organization's id, an
    // unknown one) fails the whole answer.
    const [{ trace, waterfall }, labels, graderLabels, assertions, records, live] = await Promise.all([
      getTraceWithWaterfall(ctx.db, org, input.id, FIRST_WINDOW),
      findTraceLabels(ctx.db, org, [input.id]),
      findGraderLabels(ctx.db, org, { traceIds: [input.id] }),
      getTraceAssertions(ctx.db, org, input.id),
      findVerdictRecords(ctx.db, org, [input.id]),
      findTraceChanges(ctx.db, org, [input.id]),
    ]);
    return {
      trace,
      // As JSON text: superjson would walk each of its spans (server/trpc/json-text.ts).
      waterfall: { ...waterfall, spans: toJsonText(waterfall.spans) },
      verdict: labels.labels[0] ?? null,
      verdictRecords: records,
      graderLabels: graderLabels.labels,
      assertions,
      live,
    };
  }),

  /** Another window of the trace page's waterfall, past the first one `get` sends (docs/api/console.md, "Trace page"). */
  waterfall: protectedProcedure.input(ZWaterfallInput).query(async ({ ctx, input }) => {
    const window = await findWaterfallWindow(ctx.db, ctx.auth.organizationId, input.traceId, input.offset, input.limit);
    return { ...window, spans: toJsonText(window.spans) };
  }),

  /** Spans of a trace by name or type, in tree order, with the ancestors to expand to show each. */
  searchSpans: protectedProcedure.input(ZWaterfallSearchInput).query(({ ctx, input }) =>
    searchWaterfall(ctx.db, ctx.auth.organizationId, input.traceId, input.text, input.limit)),

  /** One span's content for the span panel, with the superjson meta the TypeScript SDK recorded. */
  span: protectedProcedure.input(ZSpanInput).query(async ({ ctx, input }) => {
    const org = ctx.auth.organizationId;
    const span = await findSpanBySelector(ctx.db, org, input.traceId, { id: input.spanId });
    if (!span) throw notFound(`Span ${input.spanId}`);
    const raw = await getExternalSpan(ctx.db, org, span.id);
    const data = (raw.rawData.span_data ?? {}) as Record<string, unknown>;
    return { span, inputMeta: data.input_meta ?? null, outputMeta: data.output_meta ?? null, openTelemetry: openTelemetryDetails(raw.rawData, data) };
  }),
});

/**
 * What a span imported through the native OpenTelemetry door adds (docs/otel.md): the convention's system
 * instructions and tool definitions, the attributes no convention used, and where the trace's input and
 * output came from when the root carried none. Null for SDK spans.
 */
function openTelemetryDetails(rawData: Record<string, unknown>, data: Record<string, unknown>) {
  const otel = rawData.otel as { kind?: number; status?: unknown; events?: unknown[] } | undefined;
  if (!otel || typeof otel !== "object") return null;
  return {
    systemInstructions: data.system_instructions ?? null,
    tools: data.tools ?? null,
    attributes: (data.metadata ?? {}) as Record<string, unknown>,
    events: Array.isArray(otel.events) ? otel.events : [],
    status: otel.status ?? null,
    ioFrom: (data.io_from ?? null) as { input: string | null; output: string | null } | null,
  };
}

/** The console's list filters: content search, and replays left out unless asked for (docs/console.md). */
function consoleFilters<T extends { includeReplays: boolean }>(input: T) {
  return { ...input, searchContent: true, excludeReplays: !input.includeReplays };
}
