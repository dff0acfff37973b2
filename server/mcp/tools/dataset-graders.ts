import { addDatasetGraders, removeDatasetGraders } from "../../datasets/dataset-members.service.ts";
import { zId, zIds } from "../args.ts";
import { countsText, datasetLine } from "../render/datasets.ts";
import { defineTool } from "../tool.ts";

export const addGradersToDatasetTool = defineTool({
  name: "add_graders_to_dataset",
  permission: "curate",
  description: "Assign 1–100 graders to a dataset. Graders of another trace function or organization are skipped.",
  input: { datasetId: zId, graderIds: zIds(100) },
  run: async ({ datasetId, graderIds }, { db, auth, actor }) => {
    const r = await addDatasetGraders(db, auth.organizationId, actor, datasetId, graderIds);
    const text = [
      `Assigned ${r.addedGraderIds.length} grader(s) to dataset ${r.dataset.name}; skipped ${r.skippedGraderIds.length}; already assigned ${r.alreadyAssignedGraderIds.length}.`,
      countsText([["assigned", r.addedGraderIds], ["skipped", r.skippedGraderIds], ["already assigned", r.alreadyAssignedGraderIds]]),
      `Dataset: ${datasetLine(r.dataset)}`,
    ].join("\n");
    return { text, data: r };
  },
});

export const removeGradersFromDatasetTool = defineTool({
  name: "remove_graders_from_dataset",
  permission: "curate",
  description: "Unassign 1–100 graders from a dataset (the graders themselves are kept).",
  input: { datasetId: zId, graderIds: zIds(100) },
  run: async ({ datasetId, graderIds }, { db, auth, actor }) => {
    const r = await removeDatasetGraders(db, auth.organizationId, actor, datasetId, graderIds);
    const text = [
      `Unassigned ${r.removedGraderIds.length} grader(s) from dataset ${r.dataset.name}; ${r.notAssignedGraderIds.length} were not assigned.`,
      countsText([["unassigned", r.removedGraderIds], ["not assigned", r.notAssignedGraderIds]]),
      `Dataset: ${datasetLine(r.dataset)}`,
    ].join("\n");
    return { text, data: r };
  },
});
