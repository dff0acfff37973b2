// Builds the MCP server for one HTTP request: every tool of tools/index.ts, each also under its older
// names, bound to the caller's organization. A fresh server per request keeps concurrent calls on one
// session apart (docs/mcp.md, "Transport").
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { toValidationIssues } from "../errors.ts";
import { toAppError } from "../http/responses.ts";
import { logger } from "../logger.ts";
import { assertInputText } from "../shared/input-text.ts";
import { TOOLS } from "./tools/index.ts";
import { toolError, type ToolContext, type ToolDefinition, type ToolResult } from "./tool.ts";

export const SERVER_INFO = { name: "reprise", version: "0.1.0" };

const INSTRUCTIONS =
  "Reprise records traces of LLM and agent applications. Find failing traces with search_traces " +
  "(validated: true, labelResult: false), read them with get_traces and get_span_field, record verdicts " +
  "with save_agent_labels, and curate datasets with save_dataset and add_traces_to_dataset.";

/** Where flagNonObjectArguments leaves what a tools/call sent as `arguments` when it was not an object. */
const NON_OBJECT_ARGUMENTS = "reprise/nonObjectArguments";

/**
 * The SDK refuses a tools/call whose `arguments` is not an object with a protocol error before any handler
 * runs, while bad input must be a tool result naming the argument (docs/mcp.md, "Arguments"). Such calls
 * reach our handler with empty arguments and what was sent described under `_meta`.
 */
export function flagNonObjectArguments(message: unknown): unknown {
  if (Array.isArray(message)) return message.map(flagNonObjectArguments);
  if (!isPlainObject(message) || message.method !== "tools/call" || !isPlainObject(message.params)) return message;
  const args = message.params.arguments;
  if (args === undefined || isPlainObject(args)) return message;
  const got = args === null ? "null" : Array.isArray(args) ? "an array" : `a ${typeof args}`;
  const meta = isPlainObject(message.params._meta) ? message.params._meta : {};
  return { ...message, params: { ...message.params, arguments: {}, _meta: { ...meta, [NON_OBJECT_ARGUMENTS]: got } } };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function createMcpServer(ctx: ToolContext, tools: readonly ToolDefinition[] = TOOLS): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.flatMap((tool) => namesOf(tool).map((name) => [name, tool] as const)));
  // Our own listing: the SDK derives `required` from the JSON Schema, which marks every argument that
  // also accepts JSON text as optional; here an argument is required when leaving it out fails. Older
  // names are left out of the list.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(tools) }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args, _meta: meta } = request.params;
    const tool = byName.get(name);
    if (!tool) return toCallToolResult(toolError(`Tool ${name} not found. The tools are listed by tools/list.`));
    const nonObject = meta?.[NON_OBJECT_ARGUMENTS];
    if (typeof nonObject === "string") {
      return toCallToolResult(toolError(`Invalid arguments for tool ${tool.name}: arguments: expected an object of named arguments, got ${nonObject}.`, {
        error: "arguments must be an object", code: "validation_failed", issues: [{ path: "arguments", message: `expected an object, got ${nonObject}` }],
      }));
    }
    return toCallToolResult(await callTool(tool, args, ctx));
  });
  return server;
}

/** Validates the arguments against the tool's input shape, then runs it; bad input is an isError result naming the field. */
async function callTool(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = z.object(tool.input).safeParse(args ?? {});
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error.issues);
    const text = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    return toolError(`Invalid arguments for tool ${tool.name}: ${text}`, { error: "invalid arguments", code: "validation_failed", issues });
  }
  return runTool(tool, parsed.data, ctx);
}

const namesOf = (tool: ToolDefinition) => [tool.name, ...(tool.aliases ?? [])];

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
