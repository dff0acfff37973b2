// The agents' door: Streamable HTTP MCP at /mcp and /api/mcp (docs/mcp.md). It goes through defineRoute like
// every REST route (the API key, body limits, request ids, the one error table, the outage 503); protocol
// errors keep JSON-RPC's shape. Every POST gets its own SDK server and stateless transport over the tool
// registry built once per process (server.ts), so concurrent calls on one session, all with JSON-RPC id 1 as
// the existing plugins send them, each get their own answer; the session id is ours (sessions.ts): issued on
// initialize, checked on every later request, 404 when unknown or expired so clients initialise again.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { defineRoute } from "../http/define-route.ts";
import { json } from "../http/responses.ts";
import { assertInputText, decodeUtf8Text } from "../shared/input-text.ts";
import { createMcpServer, flagNonObjectArguments } from "./server.ts";
import { closeSession, isLiveSession, issueSessionId } from "./sessions.ts";

const SESSION_HEADER = "mcp-session-id";

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

const sessionNotFound = () =>
  rpcError(404, -32001, "Session not found: it expired, was closed or was issued to another key; send initialize again.");

function bearerKey(authorization: string | null): string {
  return /^Bearer\s+(.*)$/i.exec(authorization?.trim() ?? "")?.[1]?.trim() ?? "";
}

function isInitialize(message: unknown): boolean {
  const messages = Array.isArray(message) ? message : [message];
  return messages.some((m) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "initialize");
}

/** JSON unless the client lists text/event-stream before (or instead of) application/json. */
function wantsEventStream(accept: string): boolean {
  const types = accept.split(",").map((t) => t.split(";")[0].trim().toLowerCase());
  const sse = types.indexOf("text/event-stream");
  const jsonAt = types.findIndex((t) => t === "application/json" || t === "application/*" || t === "*/*");
  return sse !== -1 && (jsonAt === -1 || sse < jsonAt);
}

/** POST /mcp: one JSON-RPC message or batch. */
export const postMcp = defineRoute({
  permission: "account",
  body: "raw",
  handler: async ({ request, requestId, db, auth, body }) => {
    let message: unknown;
    const text = decodeUtf8Text(body, "body");
    try {
      message = JSON.parse(text);
    } catch {
      return rpcError(400, -32700, "Parse error: the body must be one JSON-RPC message or a batch of them.");
    }
    // Depth only: the SDK's schemas walk the message before a tool sees it; text is checked per tool (server.ts).
    assertInputText(message, { where: "body", depthOnly: true });
    if (Array.isArray(message) && message.length === 0) return rpcError(400, -32600, "Invalid Request: an empty batch.");
    const apiKey = bearerKey(request.headers.get("authorization"));
    let sessionId = request.headers.get(SESSION_HEADER) ?? undefined;
    if (isInitialize(message)) sessionId = issueSessionId(apiKey);
    else if (sessionId !== undefined && !isLiveSession(sessionId, apiKey)) return sessionNotFound();

    const server = createMcpServer({ db, auth, apiKey, baseUrl: new URL(request.url).origin, requestId });
    const eventStream = wantsEventStream(request.headers.get("accept") ?? "");
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !eventStream, keepAliveMs: 0 });
    await server.connect(transport);
    // The transport insists on both media types in Accept; we already chose the answer's form above.
    const headers = new Headers(request.headers);
    headers.set("accept", "application/json, text/event-stream");
    headers.set("content-type", "application/json");
    const answer = await transport.handleRequest(new Request(request.url, { method: "POST", headers }), { parsedBody: flagNonObjectArguments(message) });
    if (!eventStream) await server.close();
    const out = new Headers(answer.headers);
    if (sessionId !== undefined) out.set(SESSION_HEADER, sessionId);
    out.set("x-request-id", requestId);
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: out });
  },
});

/** GET /mcp would open a server-to-client stream; this server sends nothing unprompted. */
export const getMcp = defineRoute({
  permission: "account",
  handler: async () =>
    rpcError(405, -32000, "Method not allowed: this server sends no messages of its own; POST requests instead.", { allow: "POST, DELETE" }),
});

/** DELETE /mcp ends the session named by the mcp-session-id header. */
export const deleteMcp = defineRoute({
  permission: "account",
  handler: async ({ request }) => {
    const sessionId = request.headers.get(SESSION_HEADER);
    if (sessionId === null) return rpcError(400, -32000, "Bad request: send the mcp-session-id header of the session to close.");
    if (!isLiveSession(sessionId, bearerKey(request.headers.get("authorization")))) return sessionNotFound();
    closeSession(sessionId);
    return new Response(null, { status: 200 });
  },
});
