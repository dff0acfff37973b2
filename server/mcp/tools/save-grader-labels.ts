import { z } from "zod";
import { parseWith } from "../../http/define-route.ts";
import { saveGraderLabels } from "../../labels/grader-label-writes.service.ts";
import { ZGraderLabelWritesBody } from "../../labels/labels.schemas.ts";
import { fromJsonText, zBool, zId, zText } from "../args.ts";
import { renderGraderLabelWrites } from "../render/labels.ts";
import { defineTool } from "../tool.ts";

const zEntry = fromJsonText(
  z.object({
    traceId: zText(500).min(1),
    graderId: zId.describe("The grader the score is for (list_graders shows each grader's output: pass/fail, a score range or categories)."),
    label: zBool.nullable().optional().describe("true = PASS, false = FAIL; derived from the score or category when the grader sets a threshold or passing categories."),
    score: fromJsonText(z.number()).nullable().optional().describe("A number within the grader's range."),
    category: zText(100).nullable().optional().describe("One of the grader's categories."),
    reason: zText(2_000).nullable().optional().describe("Why, in a sentence."),
  }),
);

// An additive tool (docs/mcp.md, "Tools"): the plugins' existing tools are unchanged.
export const saveGraderLabelsTool = defineTool({
  name: "save_grader_labels",
  permission: "label",
  description:
    "Record a score, a category or pass/fail on a grader for traces (1–200), as the key's user. Checked against each grader's output: " +
    "a score outside its range, an unknown category or a label that contradicts its threshold writes nothing.",
  input: { labels: fromJsonText(z.array(zEntry).min(1, "give 1 to 200 labels").max(200, "give 1 to 200 labels")) },
  run: async (args, { db, auth }) => {
    const body = parseWith(ZGraderLabelWritesBody, { labels: args.labels }, "arguments");
    const result = await saveGraderLabels(db, { organizationId: auth.organizationId, userId: auth.userId, via: "mcp", tool: "save_grader_labels", apiKeyId: auth.apiKeyId }, body.labels);
    return { text: renderGraderLabelWrites(result.labels), data: result };
  },
});
