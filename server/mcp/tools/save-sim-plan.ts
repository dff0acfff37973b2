import { z } from "zod";
import { decideTraceFunctionPlan } from "../../sim-plan/sim-plan.service.ts";
import { fromJsonText, zBool, zText } from "../args.ts";
import { renderPlanDecisions } from "../render/sim-plan.ts";
import { defineTool } from "../tool.ts";

/** How many recent traces the plan in the answer is read over. */
const PLAN_TRACES = 40;

export const saveSimPlanTool = defineTool({
  name: "save_sim_plan",
  permission: "manage-sim-plan",
  description:
    "Turn content capture of sim plan nodes on or off. Turning a node off also turns off every node beneath it; turning one on changes that node only, " +
    "and nodes named in the same call keep the value given. Locked nodes (framework integrations, trace roots, imported or service-named nodes) are refused with the reason. " +
    "Returns the updated plan.",
  input: {
    traceFunctionKey: zText(400).min(1),
    nodes: fromJsonText(z.array(fromJsonText(z.object({ name: zText(400).min(1), captureContent: zBool }))).min(1).max(500)),
  },
  run: async ({ traceFunctionKey, nodes }, { db, auth }) => {
    const result = await decideTraceFunctionPlan(db, auth.organizationId, { userId: auth.userId, via: "mcp", tool: "save_sim_plan", apiKeyId: auth.apiKeyId }, traceFunctionKey, nodes, PLAN_TRACES);
    return renderPlanDecisions(traceFunctionKey, result, PLAN_TRACES);
  },
});
