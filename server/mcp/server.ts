// Builds the MCP server for one HTTP request: every tool of tools/index.ts, each also under its older
// names, bound to the caller's organization. A fresh server per request keeps concurrent calls on one
// session apart (docs/mcp.md, "Transport").
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { toAppError } from "../http/responses.ts";
import { logger } from "../logger.ts";
import { assertInputText } from "../shared/input-text.ts";
import { TOOLS } from "./tools/index.ts";
import type { ToolContext, ToolDefinition, ToolResult } from "./tool.ts";

export const SERVER_INFO = { name: "reprise", version: "0.1.0" };

const INSTRUCTIONS =
  "Reprise records traces of LLM and agent applications. Find failing traces with search_traces " +
  "(validated: true, labelResult: false), read them with get_traces and get_span_field, record verdicts " +
  "with save_agent_labels, and curate datasets with save_dataset and add_traces_to_dataset.";

export function createMcpServer(ctx: ToolContext, tools: readonly ToolDefinition[] = TOOLS): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const tool of tools) {
    for (const name of namesOf(tool)) {
      server.registerTool(
        name,
        {
          description: describeAs(tool, name),
          inputSchema: z.object(tool.input),
          annotations: { readOnlyHint: tool.readOnly ?? false },
        },
        // The SDK validated the arguments with the same schema; a failure there is already an isError result.
        (async (args: unknown) => toCallToolResult(await runTool(tool, args, ctx))) as never,
      );
    }
  }
  // Our own listing: the SDK derives `required` from the JSON Schema, which marks every argument that
  // also accepts JSON text as optional; here an argument is required when leaving it out fails. Older
  // names are left out of the list.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(tools) }));
  return server;
}

const namesOf = (tool: ToolDefinition) => [tool.name, ...(tool.aliases ?? [])];
const describeAs = (tool: ToolDefinition, name: string) => (name === tool.name ? tool.description : `Older name of ${tool.name}. ${tool.description}`);

const listed = new WeakMap<readonly ToolDefinition[], Tool[]>();

export function listTools(tools: readonly ToolDefinition[]): Tool[] {
  const cached = listed.get(tools);
  if (cached) return cached;
  const out: Tool[] = [];
  for (const tool of tools) {
    const json = z.toJSONSchema(z.object(tool.input), { io: "input", unrepresentable: "any", target: "draft-7" }) as Record<string, unknown>;
    const { $schema: _schema, required: _required, ...schema } = json;
    const required = Object.entries(tool.input).filter(([, field]) => !z.safeParse(field, undefined).success).map(([key]) => key);
    const inputSchema = { ...schema, type: "object", ...(required.length ? { required } : {}) } as Tool["inputSchema"];
    // Older names stay callable but are not listed: clients that list tools see each tool once.
    out.push({ name: tool.name, description: tool.description, inputSchema, annotations: { readOnlyHint: tool.readOnly ?? false } });
  }
  listed.set(tools, out);
  return out;
}

/** Runs a tool; a service error becomes a tool error carrying its message, never a protocol error. */
export async function runTool(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const started = Date.now();
  let result: ToolResult;
  try {
    assertInputText(args, { where: "arguments" });
    result = await tool.run(args as never, ctx);
  } catch (error) {
    const appError = toAppError(error, ctx.requestId);
    const issues = appError.issues?.map((i) => `${i.path ? `${i.path}: ` : ""}${i.message}`) ?? [];
    const detail = issues.length > 1 ? ` (${issues.join("; ")})` : "";
    result = { text: `${appError.message}${detail}`, data: { error: appError.message, code: appError.code }, isError: true };
  }
  logger.debug("mcp tool call", { requestId: ctx.requestId, tool: tool.name, organizationId: ctx.auth.organizationId, ms: Date.now() - started, isError: result.isError === true });
  return result;
}

export function toCallToolResult(result: ToolResult): CallToolResult {
  return {
    content: [{ type: "text", text: result.text }],
    ...(result.data ? { structuredContent: result.data } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}
