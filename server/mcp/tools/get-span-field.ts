import { z } from "zod";
import { SPAN_FIELDS, getSpanField } from "../../spans/trace-spans.service.ts";
import { fromJsonText, zId, zInt, zText } from "../args.ts";
import { asText } from "../render/text.ts";
import { defineTool, toolError } from "../tool.ts";

const zOccurrence = z.union([z.enum(["first", "last"]), fromJsonText(z.number().int().min(0))]);

export const getSpanFieldTool = defineTool({
  name: "get_span_field",
  permission: "read",
  aliases: ["read_span_field"],
  description:
    "One field of one span, whole or up to maxChars: the span by spanId (the [ID: …] of get_traces), or by name and occurrence (first, last or a 0-based index). " +
    "Fields: input, output, reasoning, content, errors, contexts, prompt, metadata.",
  input: {
    traceId: zId,
    spanId: zId.optional(),
    name: zText(10_000).min(1).optional().describe("Span name, instead of spanId."),
    occurrence: zOccurrence.optional().describe("With name: first, last (default) or a 0-based index."),
    field: z.enum(SPAN_FIELDS),
    maxChars: zInt(1, 10_000_000).default(100_000),
  },
  readOnly: true,
  run: async (args, { db, auth }) => {
    if ((args.spanId === undefined) === (args.name === undefined)) return toolError("Give exactly one of spanId or name (with an optional occurrence).");
    const selector = args.spanId !== undefined ? { id: args.spanId } : { name: args.name!, occurrence: args.occurrence ?? ("last" as const) };
    const { span, value } = await getSpanField(db, auth.organizationId, args.traceId, selector, args.field);
    const text = asText(value);
    const shown = text.slice(0, args.maxChars);
    const header = `Span [ID: ${span.id}] ${span.name} · ${args.field} (${text.length} characters${text.length > args.maxChars ? `, first ${args.maxChars} shown` : ""}):`;
    return {
      text: `${header}\n${text === "" ? "(empty)" : shown}`,
      data: { traceId: args.traceId, spanId: span.id, name: span.name, field: args.field, length: text.length, truncated: text.length > args.maxChars, value: shown },
    };
  },
});
