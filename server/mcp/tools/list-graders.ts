import { findGraders } from "../../graders/graders.service.ts";
import { zBool, zInt, zText } from "../args.ts";
import { graderLine } from "../render/graders.ts";
import { defineTool, toolError } from "../tool.ts";

export const listGradersTool = defineTool({
  name: "list_graders",
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
    const offset = args.cursor === undefined ? 0 : Number.parseInt(args.cursor, 10);
    if (!Number.isInteger(offset) || offset < 0) return toolError("cursor is not a cursor returned by list_graders.");
    const needle = args.searchQuery?.toLowerCase();
    const all = (await findGraders(db, auth.organizationId, args.traceFunctionKey))
      .filter((g) => args.includeArchived || g.status === "active")
      .filter((g) => !needle || g.name.toLowerCase().includes(needle));
    const graders = all.slice(offset, offset + args.limit);
    const nextCursor = offset + args.limit < all.length ? String(offset + args.limit) : null;
    const lines = graders.map((g) => `- ${graderLine(g)}`);
    const text = graders.length
      ? [`Graders of ${args.traceFunctionKey} (${graders.length} of ${all.length}):`, ...lines, ...(nextCursor ? [`More: call again with cursor "${nextCursor}".`] : [])].join("\n")
      : `No graders for ${args.traceFunctionKey}.`;
    return { text, data: { graders, nextCursor } };
  },
});
