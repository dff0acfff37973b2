import { z } from "zod";
import { getDashboard } from "../../insight/dashboard/dashboard.service.ts";
import { ZDashboardInput } from "../../insight/dashboard/dashboard.schemas.ts";
import { zText } from "../args.ts";
import { renderInsights } from "../render/insights.ts";
import { defineTool, toolError } from "../tool.ts";

const DAY = 86_400_000;

export const getInsightsTool = defineTool({
  name: "get_insights",
  description:
    "The dashboard's aggregates over a time range, for all or one trace function: traces, errors, latency p50/p95/p99, cost " +
    "and tokens by trace function and by model, each grader's pass rate and trend, verdicts, and experiments' pass rates. Compact text.",
  input: {
    from: z.string().max(40).optional().describe("ISO 8601 date-time with a zone; 7 days before `to` by default."),
    to: z.string().max(40).optional().describe("ISO 8601 date-time with a zone, exclusive; now by default."),
    traceFunctionKey: zText(1000).min(1).optional().describe("Only this trace function (see list_trace_functions)."),
  },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const to = args.to ?? new Date().toISOString();
    const from = args.from ?? new Date(Date.parse(to) - 7 * DAY).toISOString();
    const parsed = ZDashboardInput.safeParse({ from, to, traceFunctionKey: args.traceFunctionKey });
    if (!parsed.success) return toolError(`Invalid range: ${parsed.error.issues.map((i) => `${i.path.join(".") || "range"} ${i.message}`).join("; ")}`);
    const dashboard = await getDashboard(db, auth.organizationId, parsed.data);
    return { text: renderInsights(dashboard), data: { insights: dashboard } };
  },
});
