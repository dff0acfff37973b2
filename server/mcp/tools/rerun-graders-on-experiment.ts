import { getRerunOn, rerunGradersOn } from "../../replay/experiments/experiment-admin.service.ts";
import type { TGraderRerun } from "../../grading/reruns/reruns.schemas.ts";
import { experimentArgs, experimentOf, zId, zIds, zInt } from "../args.ts";
import { rerunText } from "../render/experiments.ts";
import { defineTool, toolError } from "../tool.ts";

const POLL_MS = 1000;
const finished = (run: TGraderRerun) => run.status === "completed" || run.status === "errored";

export const rerunGradersOnExperimentTool = defineTool({
  name: "rerun_graders_on_experiment",
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
    const started = await rerunGradersOn(db, auth.organizationId, target, args.graderIds);
    let run = started.run;
    const t0 = Date.now();
    const deadline = t0 + args.waitSeconds * 1000;
    while (!finished(run) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
      run = (await getRerunOn(db, auth.organizationId, target, run.id)).run ?? run;
    }
    const text = rerunText(run, started.joinedExisting, Math.round((Date.now() - t0) / 1000), "rerun_graders_on_experiment");
    return { text, data: { run, joinedExisting: started.joinedExisting }, isError: run.status === "errored" };
  },
});
