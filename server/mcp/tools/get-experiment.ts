import { getExperimentReport } from "../../replay/experiments/experiment-report.service.ts";
import { experimentArgs, experimentOf } from "../args.ts";
import { renderExperimentReport } from "../render/experiments.ts";
import { defineTool, toolError } from "../tool.ts";

export const getExperimentTool = defineTool({
  name: "get_experiment",
  permission: "read",
  description: "One experiment: name, notes, git state, group, totals, the change against the originals (fixed/regressed/…), per-grader pass rates and per-assertion results with evidence.",
  input: { ...experimentArgs },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const experimentId = experimentOf(args);
    if (!experimentId) return toolError("Give experimentId (the replay run's id).");
    const report = await getExperimentReport(db, auth.organizationId, experimentId);
    return { text: renderExperimentReport(report), data: report as unknown as Record<string, unknown> };
  },
});
