import { z } from "zod";
import { generateTraceAssertions } from "../../drafts/generation.service.ts";
import { fromJsonText, zBool, zId, zText } from "../args.ts";
import { renderSavedAssertions } from "../render/assertions.ts";
import { defineTool, toolError } from "../tool.ts";

export const generateTraceAssertionsTool = defineTool({
  name: "generate_trace_assertions",
  permission: "curate",
  description:
    "Draft assertions for an ORIGINAL trace with the server's judge model and save them awaiting review. A trace that already has drafts awaiting " +
    "review gets them back; regenerate: true replaces them. Needs a model configured on the server (OPENAI_API_KEY or OPENAI_BASE_URL).",
  input: {
    traceId: zId,
    guidance: zText(10_000).optional().describe("What to focus on."),
    categoryIds: fromJsonText(z.array(zId).max(100)).optional(),
    regenerate: zBool.optional(),
  },
  run: async (args, { db, auth, actor }) => {
    const result = await generateTraceAssertions(db, { ...auth, actor }, args);
    if (!result.ok) return toolError(result.reason);
    const { assertions, reused } = result.value;
    const header = reused
      ? `Trace ${args.traceId} already has ${assertions.length} draft assertion(s) awaiting review (pass regenerate: true to draft new ones):`
      : `Drafted ${assertions.length} assertion(s) on trace ${args.traceId}, saved awaiting review (a person approves them in the console's review queue):`;
    return { text: renderSavedAssertions(header, assertions), data: { assertions, reused } };
  },
});
