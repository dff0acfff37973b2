// Test helpers: the MCP endpoint served over real HTTP, and the official MCP client connected to it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { serveRoutes, type Routes, type ServedRoutes } from "../../../test/http-server.ts";
import { deleteMcp, getMcp, postMcp } from "../mcp.http.ts";

export async function serveMcp(extra: Routes = {}): Promise<ServedRoutes> {
  const door = { POST: postMcp, GET: getMcp, DELETE: deleteMcp };
  return serveRoutes({ "/mcp": door, "/api/mcp": door, ...extra });
}

export async function connectClient(baseUrl: string, apiKey: string, path = "/mcp"): Promise<Client> {
  const client = new Client({ name: "reprise-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
  data: any;
}

/** Calls a tool and returns its text (all text blocks joined), isError and structuredContent. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
  return { text, isError: result.isError === true, data: result.structuredContent };
}
