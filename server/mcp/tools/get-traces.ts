import { z } from "zod";
import { AppError } from "../../errors.ts";
import { findTraceLabels } from "../../labels/trace-labels-read.service.ts";
import { findTraceSpans } from "../../spans/trace-spans.service.ts";
import { getTrace } from "../../traces/traces.service.ts";
import { zIds } from "../args.ts";
import { renderTraceDetails, TRACE_SEPARATOR } from "../render/traces.ts";
import { defineTool } from "../tool.ts";

export const getTracesTool = defineTool({
  name: "get_traces",
  aliases: ["read_traces"],
  description:
    "Read 1–10 traces: key, status, environment, duration, tokens, model, label and annotation, root input and output, and every span " +
    "([ID: …], type, duration, tokens, model, input, output, reasoning, content, contexts, errors). scope summary cuts each span to about " +
    "1,500 characters; full gives up to 10,000 per field. Cut fields name the get_span_field call that reads them whole.",
  input: {
    traceIds: zIds(10).describe("Trace ids (1–10)."),
    scope: z.enum(["summary", "full"]).default("summary"),
  },
  readOnly: true,
  run: async ({ traceIds, scope }, { db, auth }) => {
    const { labels } = await findTraceLabels(db, auth.organizationId, traceIds);
    const sections: string[] = [];
    const traces = [];
    const notFound: string[] = [];
    for (const id of traceIds) {
      const trace = await getTrace(db, auth.organizationId, id).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "not_found") return null;
        throw error;
      });
      if (!trace) {
        notFound.push(id);
        continue;
      }
      const spans = await findTraceSpans(db, auth.organizationId, id);
      const label = labels.find((l) => l.traceId === id);
      sections.push(renderTraceDetails({ trace, spans, label }, scope));
      traces.push({ ...trace, label: label ?? null, spans: spans.map(({ input: _i, output: _o, reasoning: _r, content: _c, contexts: _x, ...s }) => s) });
    }
    if (notFound.length > 0) sections.push(`Not found in this organization: ${notFound.join(", ")}`);
    return { text: sections.join(TRACE_SEPARATOR), data: { traces, notFoundTraceIds: notFound }, isError: traces.length === 0 };
  },
});
