import { getReplayStatus } from "../../replay/status/status.service.ts";
import { experimentArgs, experimentOf } from "../args.ts";
import { defineTool, toolError } from "../tool.ts";

export const getReplayStatusTool = defineTool({
  name: "get_replay_status",
  permission: "read",
  description: "An experiment's status, how many replay traces the server stored, and the map from each local (SDK) replay trace id to the server's trace id.",
  input: { ...experimentArgs },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const id = experimentOf(args);
    if (!id) return toolError("Give experimentId (or testRunId).");
    const status = await getReplayStatus(db, auth.organizationId, { experimentId: id, expectedSpanCounts: undefined });
    const pairs = Object.entries(status.traceIds);
    const text = [
      `Experiment ${id}: ${status.status}, ${status.traceCount} replay trace(s) stored.`,
      ...(pairs.length ? ["Local trace id → server trace id:", ...pairs.map(([local, server]) => `- ${local} → ${server}`)] : []),
    ].join("\n");
    return { text, data: { experimentId: id, ...status } };
  },
});
