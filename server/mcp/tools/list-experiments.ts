import { findExperiments } from "../../replay/experiments/experiment-list.service.ts";
import { zId, zInt, zText } from "../args.ts";
import { defineTool } from "../tool.ts";

export const listExperimentsTool = defineTool({
  name: "list_experiments",
  permission: "read",
  description: "Experiments (replay runs), newest first: of a trace function, a dataset or a git branch, or the organization's most recent ones with no filter. Each with status, counts and graders.",
  input: {
    traceFunctionKey: zText(1000).min(1).optional(),
    datasetId: zId.optional(),
    gitBranch: zText(1000).min(1).optional(),
    limit: zInt(1, 50).default(20),
  },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const { experiments } = await findExperiments(db, auth.organizationId, args);
    if (experiments.length === 0) return { text: "No experiments match.", data: { experiments } };
    const lines = experiments.map((e) => {
      const c = e.counts;
      return `- [ID: ${e.id}] ${e.name ?? "(unnamed)"} · ${e.traceFunctionKey} · ${e.status} · created ${e.createdAt}${e.completedAt ? ` · completed ${e.completedAt}` : ""}\n` +
        `  ${c.items} original(s) × ${e.attempts} attempt(s); ${c.completedReplays}/${c.planned} replays completed; graders ${e.graderIds.length}; datasets ${e.datasetIds.join(", ") || "none"}`;
    });
    return { text: [`Experiments (${experiments.length}, newest first):`, ...lines].join("\n"), data: { experiments } };
  },
});
