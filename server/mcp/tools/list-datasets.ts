import { findDatasets } from "../../datasets/datasets.service.ts";
import { zText } from "../args.ts";
import { datasetLine } from "../render/datasets.ts";
import { defineTool } from "../tool.ts";

export const listDatasetsTool = defineTool({
  name: "list_datasets",
  permission: "read",
  description: "The datasets of a trace function (all of them when no key is given): name, id, trace count and graders, most recently updated first.",
  input: { traceFunctionKey: zText(500).min(1).optional() },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const { datasets } = await findDatasets(db, auth.organizationId, { traceFunctionKey: args.traceFunctionKey });
    if (datasets.length === 0) return { text: `No datasets${args.traceFunctionKey ? ` for ${args.traceFunctionKey}` : ""}.`, data: { datasets } };
    return { text: [`Datasets (${datasets.length}):`, ...datasets.map((d) => `- ${datasetLine(d)}`)].join("\n"), data: { datasets } };
  },
});
