// Graders attached to an experiment or an experiment group (docs/api/replay.md, "Experiments and groups").
import { changeExperimentGraders, changeGroupGraders } from "../../replay/experiments/experiment-admin.service.ts";
import { experimentArgs, experimentOf, zId, zIds } from "../args.ts";
import { defineTool, toolError, type ToolResult } from "../tool.ts";

const attachedText = (what: string, id: string, graderIds: string[]): ToolResult => ({
  text: `Graders of ${what} ${id}: ${graderIds.length ? graderIds.join(", ") : "none"}.`,
  data: { id, graderIds },
});

function experimentTool(name: string, verb: "add" | "remove") {
  return defineTool({
    name,
    permission: "curate",
    description: `${verb === "add" ? "Attach" : "Detach"} graders ${verb === "add" ? "to" : "from"} an experiment (active graders of its trace function); rerun_graders_on_experiment runs them.`,
    input: { ...experimentArgs, graderIds: zIds(100) },
    run: async (args, { db, auth }) => {
      const experimentId = experimentOf(args);
      if (!experimentId) return toolError("Give experimentId (the replay run's id).");
      const r = await changeExperimentGraders(db, auth.organizationId, experimentId, { [verb]: args.graderIds });
      return attachedText("experiment", r.experimentId, r.graderIds);
    },
  });
}

function groupTool(name: string, verb: "add" | "remove") {
  return defineTool({
    name,
    permission: "curate",
    description: `${verb === "add" ? "Attach" : "Detach"} graders ${verb === "add" ? "to" : "from"} an experiment group; rerun_graders_on_experiment with experimentGroupId runs them over the group.`,
    input: { experimentGroupId: zId, graderIds: zIds(100) },
    run: async (args, { db, auth }) => {
      const r = await changeGroupGraders(db, auth.organizationId, args.experimentGroupId, { [verb]: args.graderIds });
      return attachedText("experiment group", r.experimentGroupId, r.graderIds);
    },
  });
}

export const addGradersToExperimentTool = experimentTool("add_graders_to_experiment", "add");
export const removeGradersFromExperimentTool = experimentTool("remove_graders_from_experiment", "remove");
export const addGradersToExperimentGroupTool = { ...groupTool("add_graders_to_experiment_group", "add"), aliases: ["add_grader_to_experiment_group"] };
export const removeGradersFromExperimentGroupTool = groupTool("remove_graders_from_experiment_group", "remove");
