import { ZUpsertDatasetBody } from "../../datasets/datasets.schemas.ts";
import { upsertDataset } from "../../datasets/datasets.service.ts";
import { parseWith } from "../../http/define-route.ts";
import { zText } from "../args.ts";
import { datasetLine } from "../render/datasets.ts";
import { defineTool } from "../tool.ts";

export const saveDatasetTool = defineTool({
  name: "save_dataset",
  permission: "curate",
  aliases: ["create_dataset"],
  description: "Create a dataset of one trace function, or update the one with the same name (upsert by traceFunctionKey and name). An omitted description is kept; \"\" clears it.",
  input: {
    traceFunctionKey: zText(500).min(1),
    name: zText(500).min(1),
    description: zText(20_000).nullable().optional(),
  },
  run: async (args, { db, auth, actor }) => {
    const body = parseWith(ZUpsertDatasetBody, args, "arguments");
    const { dataset, created } = await upsertDataset(db, auth.organizationId, actor, body);
    return { text: `${created ? "Created" : "Updated"} dataset ${datasetLine(dataset)}`, data: { dataset, created } };
  },
});
