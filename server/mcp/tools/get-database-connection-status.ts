import { defineTool } from "../tool.ts";

export const getDatabaseConnectionStatusTool = defineTool({
  name: "get_database_connection_status",
  permission: "account",
  description: "Whether an application database is connected for snapshots on replay: one of connected, checking, failed, none.",
  input: {},
  readOnly: true,
  run: async () => ({
    text: "Database connection status: none. Reprise takes no database snapshots; replays run against the database your app is configured with.",
    data: { status: "none" },
  }),
});
