import { findTraceLabels } from "../../labels/trace-labels-read.service.ts";
import { zIds } from "../args.ts";
import { renderTraceLabels } from "../render/labels.ts";
import { defineTool } from "../tool.ts";

export const getTraceLabelsTool = defineTool({
  name: "get_trace_labels",
  permission: "read",
  aliases: ["read_trace_labels"],
  description: "Current verdicts of 1–100 traces: the whole-trace label (PASS/FAIL, source, validated), its annotation, and one line per assertion.",
  input: { traceIds: zIds(100).describe("Trace ids (1–100).") },
  readOnly: true,
  run: async ({ traceIds }, { db, auth }) => {
    const result = await findTraceLabels(db, auth.organizationId, traceIds);
    return { text: renderTraceLabels(result.labels, result.unresolvedTraceIds), data: result };
  },
});
