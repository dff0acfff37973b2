// The MCP server: every tool of tools/index.ts, each also under its older names, bound to the caller's
// organization. The tool registry (names, input schemas, the listing tools/list answers) is built once per
// process; what each HTTP request gets is a low-level SDK Server with two handlers over that registry,
// because an SDK server serves one transport and every POST has its own, which keeps concurrent calls on one
// session apart (docs/mcp.md, "Transport").
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolRequest, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { denial } from "../auth/permissions.ts";
import { toolActor } from "../auth/audit/actor.ts";
import { toValidationIssues } from "../errors.ts";
import { toAppError } from "../http/responses.ts";
import { logger } from "../logger.ts";
import { redactToolArguments } from "../redaction/tool-arguments.ts";
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

/** The tools by every name they answer to, their input schemas, and the tools/list answer: built once per process. */
export interface ToolRegistry {
  byName: ReadonlyMap<string, { tool: ToolDefinition; input: z.ZodType }>;
  listing: Tool[];
}

export function buildToolRegistry(tools: readonly ToolDefinition[]): ToolRegistry {
  const byName = new Map<string, { tool: ToolDefinition; input: z.ZodType }>();
  for (const tool of tools) {
    const entry = { tool, input: z.object(tool.input) };
    for (const name of [tool.name, ...(tool.aliases ?? [])]) byName.set(name, entry);
  }
  return { byName, listing: listTools(tools) };
}

let processRegistry: ToolRegistry | undefined;

/** The registry of TOOLS, built on first use and kept for the life of the process. */
export function toolRegistry(): ToolRegistry {
  return (processRegistry ??= buildToolRegistry(TOOLS));
}

/** The SDK builds a JSON Schema validator (an Ajv instance) per server unless given one; one serves every request. */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** The SDK server of one request: the protocol's own handlers, and tools/list and tools/call over the prebuilt registry. */
export function createMcpServer(ctx: ToolContext, registry: ToolRegistry = toolRegistry()): Server {
  // The capabilities the SDK's McpServer declared for tools (listChanged), so initialize answers as it always has.
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS, jsonSchemaValidator });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: registry.listing }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => toCallToolResult(await callToolRequest(registry, request.params, ctx)));
  return server;
}

async function callToolRequest(registry: ToolRegistry, params: CallToolRequest["params"], ctx: ToolContext): Promise<ToolResult> {
  const { name, arguments: args, _meta: meta } = params;
  const entry = registry.byName.get(name);
  if (!entry) return toolError(`Tool ${name} not found. The tools are listed by tools/list.`);
  // The same rule as REST and the console, before the arguments are read (server/auth/permissions.ts).
  const denied = denial(ctx.auth, entry.tool.permission);
  if (denied) return toolError(denied.message, { error: denied.message, code: denied.code, ...denied.fields });
  const nonObject = meta?.[NON_OBJECT_ARGUMENTS];
  if (typeof nonObject === "string") {
    return toolError(`Invalid arguments for tool ${entry.tool.name}: arguments: expected an object of named arguments, got ${nonObject}.`, {
      error: "arguments must be an object", code: "validation_failed", issues: [{ path: "arguments", message: `expected an object, got ${nonObject}` }],
    });
  }
  return callTool(entry.tool, entry.input, args, ctx);
}

/** Validates the arguments against the tool's input shape, then runs it; bad input is an isError result naming the field. */
async function callTool(tool: ToolDefinition, input: z.ZodType, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = input.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error.issues);
    const text = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    return toolError(`Invalid arguments for tool ${tool.name}: ${text}`, { error: "invalid arguments", code: "validation_failed", issues });
  }
  return runTool(tool, parsed.data, ctx);
}

/**
 * tools/list: the SDK derives `required` from the JSON Schema, which marks every argument that also accepts
 * JSON text as optional; here an argument is required when leaving it out fails. Older names stay callable
 * but are not listed: clients that list tools see each tool once.
 */
function listTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((tool) => {
    const json = z.toJSONSchema(z.object(tool.input), { io: "input", unrepresentable: "any", target: "draft-7" }) as Record<string, unknown>;
    const { $schema: _schema, required: _required, ...schema } = json;
    const required = Object.entries(tool.input).filter(([, field]) => !z.safeParse(field, undefined).success).map(([key]) => key);
    const inputSchema = { ...schema, type: "object", ...(required.length ? { required } : {}) } as Tool["inputSchema"];
    return { name: tool.name, description: tool.description, inputSchema, annotations: { readOnlyHint: tool.readOnly ?? false } };
  });
}

/** Runs a tool; a service error becomes a tool error carrying its message, never a protocol error. */
export async function runTool(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const started = Date.now();
  let result: ToolResult;
  try {
    assertInputText(args, { where: "arguments" });
    // A write stores what the rules leave of its arguments (docs/operations.md, "Redaction").
    const redacted = tool.readOnly ? { args, masked: 0 } : await redactToolArguments(ctx.db, ctx.auth.organizationId, args);
    result = await tool.run(redacted.args as never, { ...ctx, actor: toolActor(ctx.auth, tool.name) });
    // Never silent: how many values the rules masked, beside the tool's own facts.
    if (redacted.masked > 0) result = { ...result, data: { ...result.data, redactedValues: redacted.masked } };
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
