// Every MCP tool the server offers. Adding a tool: write its file beside this one and add it here.
import type { ToolDefinition } from "../tool.ts";
import { getApiKeyContextTool } from "./get-api-key-context.ts";
import { getBitfabApiKeyTool } from "./get-bitfab-api-key.ts";
import { getDatabaseConnectionStatusTool } from "./get-database-connection-status.ts";
import { getGraderLabelsTool } from "./get-grader-labels.ts";
import { getTraceLabelsTool } from "./get-trace-labels.ts";
import { listOrganizationMembersTool } from "./list-organization-members.ts";
import { listOrganizationsTool } from "./list-organizations.ts";

export const TOOLS: readonly ToolDefinition[] = [
  // Account
  getApiKeyContextTool,
  listOrganizationsTool,
  listOrganizationMembersTool,
  getBitfabApiKeyTool,
  getDatabaseConnectionStatusTool,
  // Verdicts
  getTraceLabelsTool,
  getGraderLabelsTool,
] as unknown as readonly ToolDefinition[];
