import { rerunDatasetAndWait } from "../../grading/reruns/reruns.service.ts";
import type { TGraderRerun } from "../../grading/reruns/reruns.schemas.ts";
import { zId, zIds, zInt } from "../args.ts";
import { defineTool } from "../tool.ts";

function runText(run: TGraderRerun, joined: boolean, waitedS: number): string {
  const head = `${joined ? "Joined the running" : "Started a"} re-run ${run.id} of ${run.graderIds.length} grader(s): ${run.status}`;
  if (run.status === "completed") return `${head}. Graded ${run.result?.tracesGraded ?? 0} trace(s) with ${run.result?.gradersRun ?? 0} grader(s). Read the verdicts with get_grader_labels.`;
  if (run.status === "errored") return `${head}: ${run.error ?? "unknown error"}.`;
  const p = run.progress;
  return `${head}${p ? ` (${p.completedTraces}/${p.totalTraces} traces)` : ""} after ${waitedS} s. Call rerun_graders_on_dataset again with the same arguments to check on it.`;
}

export const rerunGradersOnDatasetTool = defineTool({
  name: "rerun_graders_on_dataset",
  permission: "replay",
  description:
    "Re-run graders (default: every grader assigned to the dataset) over every trace of a dataset, waiting up to 90 s for the result. " +
    "Calling again with the same arguments reports the running job instead of starting another.",
  input: {
    datasetId: zId,
    graderIds: zIds(100).optional(),
    waitSeconds: zInt(0, 90).default(90).describe("How long to wait for the run to finish (default 90)."),
  },
  run: async (args, { db, auth }) => {
    const { run, joinedExisting, waitedS } = await rerunDatasetAndWait(db, auth.organizationId, args.datasetId, args.graderIds, args.waitSeconds);
    return { text: runText(run, joinedExisting, waitedS), data: { run, joinedExisting }, isError: run.status === "errored" };
  },
});
