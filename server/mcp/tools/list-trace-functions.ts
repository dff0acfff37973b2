import { findTraceFunctions } from "../../traces/search.service.ts";
import { defineTool } from "../tool.ts";

export const listTraceFunctionsTool = defineTool({
  name: "list_trace_functions",
  permission: "read",
  description: "The trace functions of the organization (the traceFunctionKey of its traces), with trace count and last activity, most recent first.",
  input: {},
  readOnly: true,
  run: async (_args, { db, auth }) => {
    const functions = await findTraceFunctions(db, auth.organizationId);
    if (functions.length === 0) return { text: "No trace functions yet: no traces have been recorded.", data: { traceFunctions: [] } };
    const lines = functions.map((f) => `- ${f.traceFunctionKey}: ${f.traceCount} trace${f.traceCount === 1 ? "" : "s"}, last activity ${f.lastActivity ?? "unknown"}`);
    return { text: [`Trace functions (${functions.length}):`, ...lines].join("\n"), data: { traceFunctions: functions } };
  },
});
