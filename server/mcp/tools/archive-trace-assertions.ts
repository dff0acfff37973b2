import { archiveAssertions } from "../../assertions/assertions.service.ts";
import { zId, zIds } from "../args.ts";
import { defineTool } from "../tool.ts";

export const archiveTraceAssertionsTool = defineTool({
  name: "archive_trace_assertions",
  permission: "curate",
  description:
    "Archive 1–50 assertions of a trace (hidden from every read, kept for audit). All or nothing: one unknown, archived or other trace's id fails the call and names it.",
  input: { traceId: zId, assertionIds: zIds(50).describe("Assertion ids (1–50).") },
  run: async ({ traceId, assertionIds }, { db, auth, actor }) => {
    // Unlike the REST archive (idempotent), the tool refuses an already archived id.
    const result = await archiveAssertions(db, auth.organizationId, actor, traceId, assertionIds, { activeOnly: true });
    return { text: `Archived ${result.archived.length} assertion(s) of trace ${traceId}: ${result.archived.join(", ")}.`, data: result };
  },
});
