import { findEffectiveAssertions, getTraceAssertions, toAssertionResponses } from "../../assertions/assertions.service.ts";
import { zIds } from "../args.ts";
import { renderTraceAssertions, type TraceAssertionsView } from "../render/assertions.ts";
import { defineTool } from "../tool.ts";

export const getTraceAssertionsTool = defineTool({
  name: "get_trace_assertions",
  description:
    "The approved assertions of 1–100 traces, one line each: `[ID: <uuid>] checks <target>: <assertion>` with pass/fail criteria, human note, " +
    "assignee and category. Call it on the ORIGINAL traces before judging a replay, and write one verdict per assertion (save_agent_labels with assertionId). " +
    "A replay with none of its own reads its original's. Drafts awaiting review are not listed (a person approves them in the console).",
  input: { traceIds: zIds(100).describe("Trace ids (1–100).") },
  readOnly: true,
  run: async ({ traceIds }, { db, auth }) => {
    const views: TraceAssertionsView[] = [];
    const unresolved: string[] = [];
    for (const traceId of traceIds) {
      const found = await findEffectiveAssertions(db, auth.organizationId, traceId);
      if (!found) {
        unresolved.push(traceId);
        continue;
      }
      const all = await getTraceAssertions(db, auth.organizationId, traceId, { includeUnapproved: true });
      const pending = all.assertions.filter((a) => a.approvalState === "pending").length;
      views.push({ traceId, assertions: await toAssertionResponses(db, auth.organizationId, found.assertions), inheritedFrom: found.inheritedFrom, pending });
    }
    return { text: renderTraceAssertions(views, unresolved), data: { traces: views, unresolvedTraceIds: unresolved } };
  },
});
