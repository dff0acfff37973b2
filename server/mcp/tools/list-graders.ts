import { findGradersPage } from "../../graders/graders.service.ts";
import { zBool, zInt, zText } from "../args.ts";
import { graderLine } from "../render/graders.ts";
import { defineTool } from "../tool.ts";

export const listGradersTool = defineTool({
  name: "list_graders",
  permission: "read",
  description: "The graders of a trace function (active ones unless includeArchived), optionally those whose name contains searchQuery; pages of limit with a cursor.",
  input: {
    traceFunctionKey: zText(500).min(1),
    includeArchived: zBool.default(false),
    searchQuery: zText(200).optional(),
    limit: zInt(1, 50).default(20),
    cursor: zText(100).optional().describe("nextCursor of the previous page."),
  },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const { graders, total, nextCursor } = await findGradersPage(db, auth.organizationId, args);
    const lines = graders.map((g) => `- ${graderLine(g)}`);
    const text = graders.length
      ? [`Graders of ${args.traceFunctionKey} (${graders.length} of ${total}):`, ...lines, ...(nextCursor ? [`More: call again with cursor "${nextCursor}".`] : [])].join("\n")
      : `No graders for ${args.traceFunctionKey}.`;
    return { text, data: { graders, nextCursor } };
  },
});
