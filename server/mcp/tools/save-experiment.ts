import { saveExperiment } from "../../replay/experiments/experiment-admin.service.ts";
import { experimentArgs, experimentOf, zId, zText } from "../args.ts";
import { experimentLine } from "../render/experiments.ts";
import { defineTool, toolError } from "../tool.ts";

export const saveExperimentTool = defineTool({
  name: "save_experiment",
  permission: "replay",
  description: "Name an experiment (replay run), write its notes, or move it into an experiment group (a new group id creates the group; null takes it out).",
  input: {
    ...experimentArgs,
    name: zText(120).optional(),
    notes: zText(10_000).optional(),
    experimentGroupId: zId.nullable().optional(),
  },
  run: async (args, { db, auth }) => {
    const experimentId = experimentOf(args);
    if (!experimentId) return toolError("Give experimentId (the replay run's id).");
    if (args.name === undefined && args.notes === undefined && args.experimentGroupId === undefined) return toolError("Give at least one of name, notes or experimentGroupId.");
    const experiment = await saveExperiment(db, auth.organizationId, { experimentId, name: args.name, notes: args.notes, experimentGroupId: args.experimentGroupId });
    return { text: `Saved experiment ${experimentLine(experiment)}${experiment.notes ? `\nNotes: ${experiment.notes}` : ""}`, data: { experiment } };
  },
});
