import { generateLabelEvidence } from "../../drafts/generation.service.ts";
import { zId } from "../args.ts";
import { defineTool, toolError } from "../tool.ts";

export const generateLabelEvidenceTool = defineTool({
  name: "generate_label_evidence",
  permission: "label",
  description:
    "Find span evidence on a trace for one of its assertions with the server's judge model: items {spanId, text, spanName, spanType}. The evidence joins " +
    "the trace's current agent verdict on that assertion while it awaits validation; otherwise pass it as evidence to save_agent_labels.",
  input: { traceId: zId, assertionId: zId },
  run: async (args, { db, auth, actor }) => {
    const result = await generateLabelEvidence(db, { ...auth, actor }, args);
    if (!result.ok) return toolError(result.reason);
    const { evidence, attached } = result.value;
    const lines = [
      `Evidence for assertion ${args.assertionId} on trace ${args.traceId}: ${evidence.length} item(s)${attached ? "; attached to the current agent verdict (awaiting validation)" : ""}.`,
      ...evidence.map((e) => `- [span ${e.spanId}] ${e.spanName} (${e.spanType}): ${e.text}`),
    ];
    return { text: lines.join("\n"), data: { evidence: evidence.map((e) => ({ ...e, isMocked: false })), attached } };
  },
});
