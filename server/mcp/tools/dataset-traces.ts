import { addDatasetTraces, removeDatasetTraces } from "../../datasets/dataset-members.service.ts";
import { zId, zIds } from "../args.ts";
import { countsText, datasetLine } from "../render/datasets.ts";
import { defineTool } from "../tool.ts";

export const addTracesToDatasetTool = defineTool({
  name: "add_traces_to_dataset",
  permission: "curate",
  description: "Add 1–100 traces to a dataset. Traces of another trace function or organization are skipped; members already present are reported.",
  input: { datasetId: zId, traceIds: zIds(100) },
  run: async ({ datasetId, traceIds }, { db, auth, actor }) => {
    const r = await addDatasetTraces(db, auth.organizationId, actor, datasetId, traceIds);
    const text = [
      `Added ${r.addedTraceIds.length} trace(s) to dataset ${r.dataset.name}; skipped ${r.skippedTraceIds.length}; already present ${r.alreadyPresentTraceIds.length}.`,
      countsText([["added", r.addedTraceIds], ["skipped (not a trace of this dataset's function in this organization)", r.skippedTraceIds], ["already present", r.alreadyPresentTraceIds]]),
      `Dataset: ${datasetLine(r.dataset)}`,
    ].join("\n");
    return { text, data: r };
  },
});

export const removeTracesFromDatasetTool = defineTool({
  name: "remove_traces_from_dataset",
  permission: "curate",
  description: "Remove 1–100 traces from a dataset (the traces themselves are kept).",
  input: { datasetId: zId, traceIds: zIds(100) },
  run: async ({ datasetId, traceIds }, { db, auth, actor }) => {
    const r = await removeDatasetTraces(db, auth.organizationId, actor, datasetId, traceIds);
    const text = [
      `Removed ${r.removedTraceIds.length} trace(s) from dataset ${r.dataset.name}; ${r.notPresentTraceIds.length} were not members.`,
      countsText([["removed", r.removedTraceIds], ["not present", r.notPresentTraceIds]]),
      `Dataset: ${datasetLine(r.dataset)}`,
    ].join("\n");
    return { text, data: r };
  },
});
