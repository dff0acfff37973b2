import { findSimPlanOverview } from "../../sim-plan/sim-plan.service.ts";
import { zInt, zText } from "../args.ts";
import { renderSimPlan } from "../render/sim-plan.ts";
import { defineTool } from "../tool.ts";

export const getSimPlanTool = defineTool({
  name: "get_sim_plan",
  permission: "read-sim-plan",
  description: "The sim plan of a trace function: each node seen in its recent traces and replays, with span type, parent, call count, trace count, whether content is captured, and why a node is locked.",
  input: { traceFunctionKey: zText(400).min(1), limit: zInt(1, 100).default(40).describe("How many recent traces to read (1–100, default 40).") },
  readOnly: true,
  run: async ({ traceFunctionKey, limit }, { db, auth }) => {
    const nodes = await findSimPlanOverview(db, auth.organizationId, traceFunctionKey, limit);
    return { text: renderSimPlan(traceFunctionKey, nodes, limit), data: { traceFunctionKey, nodes } };
  },
});
