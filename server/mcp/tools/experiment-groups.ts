// save_experiment_group, list_experiment_groups, get_experiment_group (docs/api/replay.md, "Experiments and groups").
import { z } from "zod";
import { findExperimentGroups, getExperimentGroup, saveExperimentGroup } from "../../replay/experiments/experiment-admin.service.ts";
import { zId, zIds, zInt, zText } from "../args.ts";
import { experimentLine, groupLine } from "../render/experiments.ts";
import { defineTool, toolError } from "../tool.ts";

export const saveExperimentGroupTool = defineTool({
  name: "save_experiment_group",
  permission: "replay",
  aliases: ["create_experiment_group"],
  description:
    "Create an experiment group from 1–100 experiments (experimentIds; you may choose its id), or edit a group's name or notes (experimentGroupId with name and/or notes, no experimentIds).",
  input: {
    experimentGroupId: zId.optional(),
    experimentIds: zIds(100).optional(),
    testRunIds: zIds(100).optional().describe("Older name of experimentIds."),
    name: zText(120).optional(),
    notes: zText(10_000).optional(),
  },
  run: async (args, { db, auth }) => {
    const experimentIds = args.experimentIds ?? args.testRunIds;
    const { group, created } = await saveExperimentGroup(db, auth.organizationId, { experimentGroupId: args.experimentGroupId, experimentIds, name: args.name, notes: args.notes });
    return { text: `${created ? "Created" : "Updated"} experiment group ${groupLine(group)}`, data: { group, created } };
  },
});

export const listExperimentGroupsTool = defineTool({
  name: "list_experiment_groups",
  permission: "read",
  description: "The organization's experiment groups, newest first.",
  input: { limit: zInt(1, 100).optional() },
  readOnly: true,
  run: async ({ limit }, { db, auth }) => {
    const { groups } = await findExperimentGroups(db, auth.organizationId, limit ?? 20);
    return { text: groups.length ? [`Experiment groups (${groups.length}):`, ...groups.map((g) => `- ${groupLine(g)}`)].join("\n") : "No experiment groups.", data: { groups } };
  },
});

export const getExperimentGroupTool = defineTool({
  name: "get_experiment_group",
  permission: "read",
  description: "One experiment group with its experiments (newest first).",
  input: { experimentGroupId: zId.optional(), id: z.string().optional() },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const id = args.experimentGroupId ?? args.id;
    if (!id) return toolError("Give experimentGroupId.");
    const { group, experiments } = await getExperimentGroup(db, auth.organizationId, id);
    return { text: [`Experiment group ${groupLine(group)}`, `Experiments (${experiments.length}):`, ...experiments.map((e) => `- ${experimentLine(e)}`)].join("\n"), data: { group, experiments } };
  },
});
