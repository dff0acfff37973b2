import { findGraderLabels } from "../../labels/grader-labels.service.ts";
import { zId, zIds, zInt } from "../args.ts";
import { renderGraderLabels } from "../render/labels.ts";
import { defineTool } from "../tool.ts";

export const getGraderLabelsTool = defineTool({
  name: "get_grader_labels",
  permission: "read",
  aliases: ["read_grader_labels"],
  description: "Verdicts of the automated graders: every grader's verdict on the given traces, or one grader's most recent verdicts (newest first).",
  input: {
    traceIds: zIds(100).optional().describe("Trace ids (1–100)."),
    graderId: zId.optional().describe("One grader's verdicts."),
    limit: zInt(1, 200).optional().describe("Grader-only reads: how many (default 50); ignored with traceIds."),
  },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const result = await findGraderLabels(db, auth.organizationId, { traceIds: args.traceIds, graderId: args.graderId, limit: args.traceIds ? undefined : args.limit });
    return { text: renderGraderLabels(result.labels), data: result };
  },
});
