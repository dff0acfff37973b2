import { z } from "zod";
import { parseWith } from "../../http/define-route.ts";
import { ZAgentLabelsBody } from "../../labels/labels.schemas.ts";
import { saveAgentLabelsWithVerdicts } from "../../labels/trace-labels.service.ts";
import { experimentArgs, experimentOf, fromJsonText, zBool, zEvidenceArg, zId, zInt, zText } from "../args.ts";
import { renderAgentLabelWrites } from "../render/label-writes.ts";
import { defineTool } from "../tool.ts";

const zTraceRef = zText(500).min(1);

const zEntry = fromJsonText(
  z.object({
    traceId: zTraceRef.optional().describe("Direct verdict on this trace."),
    originalTraceId: zTraceRef.optional().describe("Replay verdict: the original trace, resolved to its replay in the experiment."),
    sourceTraceId: zTraceRef.optional().describe("Deprecated copy of originalTraceId."),
    attempt: zInt(0, 1_000_000).optional().describe("With originalTraceId: which attempt (default 0)."),
    assertionId: zId.nullable().optional().describe("Score one assertion instead of the whole trace."),
    label: zBool.optional().describe("true = PASS, false = FAIL."),
    annotation: zText(20_000).min(1).optional().describe("Why."),
    confidence: z.enum(["VeryLow", "Low", "Medium", "High", "VeryHigh"]).optional(),
    evidence: zEvidenceArg,
    skip: zBool.optional().describe("Withhold a verdict (crashed attempt, unresolvable target)."),
    archive: zBool.optional().describe("Clear the current verdict."),
  }),
);

export const saveAgentLabelsTool = defineTool({
  name: "save_agent_labels",
  permission: "label",
  aliases: ["update_agent_labels"],
  description:
    "Record agent verdicts (1–200): direct ({traceId, label, annotation}) or replay lineage (experimentId + {originalTraceId, attempt?}); " +
    "{skip: true} withholds one, {archive: true} clears one. Score one assertion with assertionId (call get_trace_assertions on the original first; " +
    "an assertion whose target is missing gets skip: true, never a FAIL); evidence is [{spanId, text}] (null clears, omitted keeps). New agent verdicts are not validated until a person approves them. " +
    "The answer has one line per label: `- <id>: <action>; effective PASS|FAIL|skipped|unlabeled`.",
  input: {
    ...experimentArgs,
    labels: fromJsonText(z.array(zEntry).min(1, "give 1 to 200 labels").max(200, "give 1 to 200 labels")),
  },
  run: async (args, { db, auth, actor }) => {
    const testRunId = experimentOf(args);
    // The plugins copy originalTraceId into the deprecated sourceTraceId: one key, not two.
    const labels = args.labels.map(({ sourceTraceId, originalTraceId, ...e }) => ({
      ...e,
      ...(originalTraceId ?? sourceTraceId ? { originalTraceId: originalTraceId ?? sourceTraceId } : {}),
    }));
    const body = parseWith(ZAgentLabelsBody, { testRunId, labels }, "arguments");
    return renderAgentLabelWrites(labels, await saveAgentLabelsWithVerdicts(db, auth, actor, body), testRunId);
  },
});
