import { z } from "zod";
import { findSimPlanOverview, decideSimPlan } from "../../sim-plan/sim-plan.service.ts";
import { fromJsonText, zBool, zText } from "../args.ts";
import { renderSimPlan } from "../render/sim-plan.ts";
import { defineTool } from "../tool.ts";

export const saveSimPlanTool = defineTool({
  name: "save_sim_plan",
  description:
    "Turn content capture of sim plan nodes on or off. Turning a node off also turns off every node beneath it; turning one on changes that node only, " +
    "and nodes named in the same call keep the value given. Locked nodes (framework integrations, trace roots, imported or service-named nodes) are refused with the reason. " +
    "Returns the updated plan.",
  input: {
    traceFunctionKey: zText(400).min(1),
    nodes: fromJsonText(z.array(fromJsonText(z.object({ name: zText(400).min(1), captureContent: zBool }))).min(1).max(500)),
  },
  run: async ({ traceFunctionKey, nodes }, { db, auth }) => {
    const decisions = nodes.map((n) => ({ traceFunctionKey, name: n.name, captureContent: n.captureContent }));
    const result = await decideSimPlan(db, auth.organizationId, auth.userId, decisions);
    const refused = new Set(result.refused.map((r) => r.name));
    const applied = decisions.filter((d) => !refused.has(d.name));
    const lines = [`Applied ${applied.length} decision(s)${result.cascaded.length ? `, and turned off ${result.cascaded.length} node(s) beneath: ${result.cascaded.map((c) => c.name).join(", ")}` : ""}.`];
    for (const r of result.refused) lines.push(`Refused ${r.name}: ${r.reason}`);
    const plan = await findSimPlanOverview(db, auth.organizationId, traceFunctionKey, 40);
    lines.push("", renderSimPlan(traceFunctionKey, plan, 40));
    return { text: lines.join("\n"), data: { applied, refused: result.refused, cascaded: result.cascaded, nodes: plan }, isError: applied.length === 0 && result.refused.length > 0 };
  },
});
