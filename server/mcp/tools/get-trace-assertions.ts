import { findTraceAssertionViews } from "../../assertions/assertions.service.ts";
import { zIds } from "../args.ts";
import { renderTraceAssertions } from "../render/assertions.ts";
import { defineTool } from "../tool.ts";

export const getTraceAssertionsTool = defineTool({
  name: "get_trace_assertions",
  permission: "read",
  description:
    "The approved assertions of 1–100 traces, one line each: `[ID: <uuid>] checks <target>: <assertion>` with pass/fail criteria, human note, " +
    "assignee and category. Call it on the ORIGINAL traces before judging a replay, and write one verdict per assertion (save_agent_labels with assertionId). " +
    "A replay with none of its own reads its original's. Drafts awaiting review are not listed (a person approves them in the console).",
  input: { traceIds: zIds(100).describe("Trace ids (1–100).") },
  readOnly: true,
  run: async ({ traceIds }, { db, auth }) => {
    const result = await findTraceAssertionViews(db, auth.organizationId, traceIds);
    return { text: renderTraceAssertions(result.traces, result.unresolvedTraceIds), data: result };
  },
});
