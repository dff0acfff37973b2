// One MCP tool: a name (plus the older names the plugins still call), an input shape and a thin run
// function over the services. Adding a tool is one file under tools/ and one line in tools/index.ts.
import type { z } from "zod";
import type { TAuthContext } from "../auth/auth.schemas.ts";
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";
import type { TPermission } from "../auth/permissions.ts";
import type { Database } from "../db/client.ts";

export interface ToolContext {
  db: Database;
  auth: TAuthContext;
  /** The key the caller authenticated with (get_bitfab_api_key hands it back). */
  apiKey: string;
  /** The server's public origin as the caller reached it, for links and setup hints. */
  baseUrl: string;
  requestId: string;
}

/** A tool's run sees who the audit log records its changes as: this tool, its key and the key's user. */
export interface ToolRunContext extends ToolContext {
  actor: TAuditActor;
}

/** What a tool returns: the text agents read, and the same facts as JSON for clients that use it. */
export interface ToolResult {
  text: string;
  data?: Record<string, unknown>;
  /** A tool-level failure the agent can act on (never a protocol error). */
  isError?: boolean;
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  /** Older names of the same tool (docs/mcp.md, "Tools"). */
  aliases?: string[];
  description: string;
  input: Shape;
  /** Read-only tools are annotated as such for clients that ask before writes. */
  readOnly?: boolean;
  /**
   * What the caller must be allowed (server/auth/permissions.ts), checked against the key's scope and its user's
   * role before the arguments are read. Required, so a new tool cannot forget it.
   */
  permission: TPermission;
  run: (args: z.output<z.ZodObject<Shape>>, ctx: ToolRunContext) => Promise<ToolResult>;
}

export function defineTool<Shape extends z.ZodRawShape>(def: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return def;
}

export function toolError(text: string, data?: Record<string, unknown>): ToolResult {
  return { text, data, isError: true };
}

/** The answer of a tool for a feature Reprise does not have: one sentence, never a protocol error. */
export function unsupportedTool(name: string, aliases: string[], sentence: string, description: string): ToolDefinition<{}> {
  return defineTool({
    name,
    aliases,
    description: `${description} Not available in Reprise: calling it explains what to use instead.`,
    input: {},
    readOnly: true,
    permission: "account",
    run: async () => toolError(sentence),
  });
}
