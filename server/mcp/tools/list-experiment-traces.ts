import { findExperimentTraces } from "../../replay/experiments/experiment-traces.service.ts";
import { experimentArgs, experimentOf } from "../args.ts";
import { tokensText, verdictWord } from "../render/text.ts";
import { defineTool, toolError } from "../tool.ts";

export const listExperimentTracesTool = defineTool({
  name: "list_experiment_traces",
  permission: "read",
  aliases: ["get_experiment_traces"],
  description: "Every replay trace of an experiment with its original: fixed, regressed, still-passing, still-failing or unpaired, and the tokens of both.",
  input: { ...experimentArgs },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const id = experimentOf(args);
    if (!id) return toolError("Give experimentId (or testRunId).");
    const { experiment, traces } = await findExperimentTraces(db, auth.organizationId, id);
    const tally = new Map<string, number>();
    for (const t of traces) tally.set(t.verdict, (tally.get(t.verdict) ?? 0) + 1);
    const lines = [
      `Experiment ${experiment.id} (${experiment.status}): ${traces.length} replay trace(s)${traces.length ? ` — ${[...tally].map(([v, n]) => `${n} ${v}`).join(", ")}` : ""}.`,
      ...traces.map((t) =>
        `- [ID: ${t.traceId}] ${t.verdict} · original ${t.originalTraceId}${t.attempt !== null ? ` · attempt ${t.attempt}` : ""} · ` +
        `replay ${verdictWord(t.label)}, original ${verdictWord(t.originalLabel)} · tokens replay ${tokensText(t.tokens)} / original ${tokensText(t.originalTokens)}`),
    ];
    return { text: lines.join("\n"), data: { experiment, traces } };
  },
});
