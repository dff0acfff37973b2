import { z } from "zod";
import { parseWith } from "../../http/define-route.ts";
import { ZHumanLabelsBody } from "../../labels/labels.schemas.ts";
import { saveHumanLabelsWithVerdicts } from "../../labels/trace-labels.service.ts";
import { fromJsonText, zBool, zEvidenceArg, zId, zText } from "../args.ts";
import { renderHumanLabelWrites } from "../render/label-writes.ts";
import { defineTool } from "../tool.ts";

const zEntry = fromJsonText(
  z.object({
    traceId: zText(500).min(1),
    label: zBool.describe("true = PASS, false = FAIL."),
    annotation: zText(20_000).describe("Why, in the person's words."),
    confidence: z.enum(["VeryLow", "Low", "Medium", "High", "VeryHigh"]).optional(),
    assertionId: zId.nullable().optional().describe("Score one assertion instead of the whole trace."),
    evidence: zEvidenceArg,
  }),
);

export const saveHumanLabelsTool = defineTool({
  name: "save_human_labels",
  permission: "label",
  aliases: ["set_human_labels"],
  description:
    "Record verdicts a person decided (1–200), validated at once. All or nothing: a trace outside the organization, the same target twice, " +
    "or an assertion not active on its trace writes nothing. Use only for a person's decision.",
  input: { labels: fromJsonText(z.array(zEntry).min(1, "give 1 to 200 labels").max(200, "give 1 to 200 labels")) },
  run: async (args, { db, auth, actor }) => {
    const body = parseWith(ZHumanLabelsBody, { labels: args.labels }, "arguments");
    return renderHumanLabelWrites(args.labels, await saveHumanLabelsWithVerdicts(db, auth, actor, body.labels));
  },
});
