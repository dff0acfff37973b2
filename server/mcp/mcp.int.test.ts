// The MCP door over real HTTP: the official client, the plugins' own way of calling (JSON-RPC id 1 on every
// request, no initialized notification, concurrent calls on one session), sessions, auth and isolation.
import { cliActor } from "../auth/audit/actor.ts";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createTrace } from "../../test/factories.ts";
import type { ServedRoutes } from "../../test/http-server.ts";
import { saveHumanLabels } from "../labels/trace-labels.service.ts";
import { toolRegistry } from "./server.ts";
import { callTool, connectClient, serveMcp } from "./testing/mcp-client.ts";

describe("MCP endpoint", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let served: ServedRoutes;
  let client: Client;
  const traceIds: string[] = [];

  beforeAll(async () => {
    org = await createTestOrg(db(), "Acme");
    other = await createTestOrg(db(), "Other");
    served = await serveMcp();
    client = await connectClient(served.url, org.apiKey);
    for (let i = 0; i < 6; i++) traceIds.push((await createTrace(db(), org.organizationId, { traceFunctionKey: "answer" })).id);
    await saveHumanLabels(db(), org, cliActor, traceIds.map((traceId, i) => ({ traceId, label: i % 2 === 0, annotation: `note ${i}` })));
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  const plugin = (body: unknown, headers: Record<string, string> = {}, apiKey = org.apiKey) =>
    fetch(`${served.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${apiKey}`, ...headers },
      body: JSON.stringify(body),
    });
  const initialize = async (apiKey = org.apiKey) => {
    const res = await plugin({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "bitfab-claude-plugin", version: "0.9.74" } } }, {}, apiKey);
    expect(res.status).toBe(200);
    const session = res.headers.get("mcp-session-id");
    expect(session).toBeTruthy();
    return session!;
  };
  const toolCall = (session: string, name: string, args: unknown) =>
    plugin({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }, { "mcp-session-id": session });

  it("lists its tools to the official client, with JSON Schemas of their inputs", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["get_api_key_context", "get_trace_labels"]));
    const labels = tools.find((t) => t.name === "get_trace_labels")!;
    expect(labels.inputSchema).toMatchObject({ type: "object", properties: { traceIds: { type: "array" } }, required: ["traceIds"] });
  });

  it("serves every request from the tool registry built once per process", async () => {
    const registry = toolRegistry();
    const second = await connectClient(served.url, org.apiKey, "/api/mcp");
    const [a, b] = await Promise.all([client.listTools(), second.listTools()]);
    await second.close();
    expect(toolRegistry()).toBe(registry);
    expect(a.tools).toEqual(registry.listing);
    expect(b.tools).toEqual(registry.listing);
    // Older names answer from the same definitions.
    expect(registry.byName.get("read_trace_labels")).toBe(registry.byName.get("get_trace_labels"));
    const init = await (await plugin({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "bitfab-claude-plugin", version: "0.9.74" } } })).json();
    expect(init.result).toMatchObject({ protocolVersion: "2025-03-26", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "reprise", version: "0.1.0" } });
    expect(init.result.instructions).toContain("search_traces");
  });

  it("answers the account tools for the key's organization", async () => {
    const ctx = await callTool(client, "get_api_key_context");
    expect(ctx.isError).toBe(false);
    expect(ctx.text).toContain(`Organization: Acme (${org.organizationId})`);
    expect(ctx.data.organization).toEqual({ id: org.organizationId, name: "Acme" });
    expect((await callTool(client, "list_organizations")).text).toContain("Acme");
    expect((await callTool(client, "list_organization_members")).text).toContain(org.email);
    const key = await callTool(client, "get_bitfab_api_key");
    expect(key.text).toContain(org.apiKey);
    expect(key.data).toEqual({ apiKey: org.apiKey, serviceUrl: served.url });
    expect((await callTool(client, "get_simforge_api_key")).data.apiKey).toBe(org.apiKey);
    expect((await callTool(client, "get_database_connection_status")).data).toEqual({ status: "none" });
  });

  it("also serves /api/mcp", async () => {
    const c = await connectClient(served.url, org.apiKey, "/api/mcp");
    expect((await callTool(c, "get_api_key_context")).data.organization.id).toBe(org.organizationId);
    await c.close();
  });

  it("answers like the plugins expect: id 1 on every request, no initialized notification, 6 concurrent calls on one session", async () => {
    const session = await initialize();
    const responses = await Promise.all(traceIds.map((id) => toolCall(session, "get_trace_labels", { traceIds: [id] })));
    const bodies = await Promise.all(responses.map(async (r) => {
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toContain("application/json");
      return (await r.json()) as { id: number; result: { content: Array<{ text: string }>; structuredContent: any } };
    }));
    bodies.forEach((body, i) => {
      expect(body.id).toBe(1);
      expect(body.result.structuredContent.labels[0].traceId).toBe(traceIds[i]);
      expect(body.result.content[0].text).toContain(`Trace ${traceIds[i]}: ${i % 2 === 0 ? "PASS" : "FAIL"}`);
      expect(body.result.content[0].text).toContain(`note ${i}`);
    });
  });

  it("answers in SSE when the client asks for text/event-stream first (the plugins read the first data: line)", async () => {
    const session = await initialize();
    const res = await plugin({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_trace_labels", arguments: { traceIds: [traceIds[0]] } } },
      { "mcp-session-id": session, accept: "text/event-stream, application/json" });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const data = (await res.text()).split("\n").find((l) => l.startsWith("data: "))!;
    expect(JSON.parse(data.slice(6)).result.structuredContent.labels[0].traceId).toBe(traceIds[0]);
  });

  it("answers 404 to an unknown, forged or closed session, and a re-initialised session works", async () => {
    const unknown = await toolCall("not-a-session", "get_api_key_context", {});
    expect(unknown.status).toBe(404);
    // A session issued to another key is unknown to this one.
    const theirs = await initialize(other.apiKey);
    expect((await toolCall(theirs, "get_api_key_context", {})).status).toBe(404);
    const session = await initialize();
    const closed = await fetch(`${served.url}/mcp`, { method: "DELETE", headers: { authorization: `Bearer ${org.apiKey}`, "mcp-session-id": session } });
    expect(closed.status).toBe(200);
    expect((await toolCall(session, "get_api_key_context", {})).status).toBe(404);
    const fresh = await initialize();
    const ok = await toolCall(fresh, "get_api_key_context", {});
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result.structuredContent.organization.id).toBe(org.organizationId);
  });

  it("answers 401 JSON without a valid key, on every method", async () => {
    for (const apiKey of ["", "rp_wrong_key_0000000000000000000000000000"]) {
      const res = await plugin({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }, apiKey ? {} : { authorization: "" }, apiKey);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "unauthorized" });
    }
    const get = await fetch(`${served.url}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(401);
  });

  it("treats another organization's ids as not found", async () => {
    const c = await connectClient(served.url, other.apiKey);
    const read = await callTool(c, "get_trace_labels", { traceIds: [traceIds[0]] });
    expect(read.isError).toBe(false);
    expect(read.text).toContain(`Not found in this organization: ${traceIds[0]}`);
    expect(read.data.labels).toEqual([]);
    await c.close();
  });

  it("turns bad input into a tool error the agent can act on, and keeps the session usable", async () => {
    const bad = await callTool(client, "get_trace_labels", { traceIds: ["nope"] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/traceIds/);
    const unknownTool = await callTool(client, "no_such_tool");
    expect(unknownTool.isError).toBe(true);
    // Stringified arrays and numbers, unknown keys: accepted.
    const tolerant = await callTool(client, "get_grader_labels", { traceIds: JSON.stringify([traceIds[0]]), limit: "5", somethingElse: true });
    expect(tolerant.isError).toBe(false);
    expect((await callTool(client, "get_api_key_context")).isError).toBe(false);
  });

  it("answers non-object arguments with a tool error naming `arguments`, never a protocol error (docs/mcp.md, \"Arguments\")", async () => {
    const session = await initialize();
    for (const args of ["traceIds", [traceIds[0]], 5, null, true]) {
      const res = await toolCall(session, "get_trace_labels", args);
      expect(res.status, JSON.stringify(args)).toBe(200);
      const body = (await res.json()) as { error?: unknown; result: { isError: boolean; content: Array<{ text: string }>; structuredContent: any } };
      expect(body.error, JSON.stringify(args)).toBeUndefined();
      expect(body.result.isError).toBe(true);
      expect(body.result.content[0].text).toMatch(/^Invalid arguments for tool get_trace_labels: arguments: expected an object/);
      expect(body.result.structuredContent.issues[0].path).toBe("arguments");
    }
    const missing = await toolCall(session, "get_trace_labels", undefined);
    expect(((await missing.json()) as { result: { content: Array<{ text: string }> } }).result.content[0].text).toMatch(/traceIds/);
  });

  it("answers GET with 405 and a JSON-RPC parse error with 400", async () => {
    const get = await fetch(`${served.url}/mcp`, { headers: { authorization: `Bearer ${org.apiKey}`, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    const bad = await fetch(`${served.url}/mcp`, { method: "POST", headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{" });
    expect(bad.status).toBe(400);
  });
});
