import { rerunGradersOnAndWait } from "../../replay/experiments/experiment-admin.service.ts";
import { experimentArgs, experimentOf, zId, zIds, zInt } from "../args.ts";
import { rerunText } from "../render/experiments.ts";
import { defineTool, toolError } from "../tool.ts";

export const rerunGradersOnExperimentTool = defineTool({
  name: "rerun_graders_on_experiment",
  permission: "replay",
  description:
    "Re-run graders (default: every grader attached to the experiment and its group) over the experiment's replay traces, or with experimentGroupId over " +
    "every replay trace of the group, waiting up to 90 s. Calling again with the same arguments reports the running job.",
  input: {
    ...experimentArgs,
    experimentGroupId: zId.optional(),
    graderIds: zIds(100).optional(),
    waitSeconds: zInt(0, 90).default(90).describe("How long to wait for the run to finish (default 90)."),
  },
  run: async (args, { db, auth }) => {
    const experimentId = experimentOf(args);
    if (!experimentId && !args.experimentGroupId) return toolError("Give experimentId (or experimentGroupId).");
    const target = experimentId ? { experimentId } : { experimentGroupId: args.experimentGroupId };
    const { run, joinedExisting, waitedS } = await rerunGradersOnAndWait(db, auth.organizationId, target, args.graderIds, args.waitSeconds);
    return { text: rerunText(run, joinedExisting, waitedS, "rerun_graders_on_experiment"), data: { run, joinedExisting }, isError: run.status === "errored" };
  },
});
