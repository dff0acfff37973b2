// The MCP door of the built server (`npm start`, shared by the system suites): a trace recorded over REST is found, read
// and labelled through the official MCP client, the label reads back over REST, and calls shaped like the
// existing plugins' (JSON-RPC id 1, no initialized notification, 6 at once on one session) each get their own
// answer from the production bundle.
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { completionPayload, spanPayload } from "../../server/ingest/testing/payloads.ts";

const KEY = "mcp-system";

describe("MCP on the built server", () => {
  const { baseUrl: base, apiKey } = inject("reprise");
  const traceIds = Array.from({ length: 6 }, () => randomUUID());

  const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${p}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}`, ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    for (const [i, traceId] of traceIds.entries()) {
      const span = await post("/api/sdk/externalSpans", spanPayload({ traceId, traceFunctionKey: KEY, name: KEY, input: [`question ${i}`], output: { text: `answer ${i}` } }));
      expect(span.status).toBe(200);
      const done = await post("/api/sdk/externalTraces", completionPayload({ traceId, traceFunctionKey: KEY, expectedSpanCount: 1 }));
      expect(done.status).toBe(200);
    }
  });

  it("the official client finds, reads and labels a trace, files it in a dataset and re-runs its grader; REST shows each effect", async () => {
    const client = new Client({ name: "system-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
    const text = async (name: string, args: Record<string, unknown> = {}) => {
      const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }>; isError?: boolean };
      expect(r.isError ?? false, r.content[0]?.text).toBe(false);
      return r.content[0].text;
    };
    expect(await text("list_trace_functions")).toContain(`- ${KEY}: 6 traces`);
    expect(await text("search_traces", { traceFunctionKey: KEY, searchQuery: "answer 3" })).toContain(`[ID: ${traceIds[3]}]`);
    expect(await text("get_traces", { traceIds: [traceIds[3]] })).toContain("answer 3");
    expect(await text("save_agent_labels", { labels: [{ traceId: traceIds[3], label: false, annotation: "wrong answer" }] })).toContain(`- ${traceIds[3]}: set; effective FAIL`);
    const labels = (await (await fetch(`${base}/api/sdk/traces/labels?traceIds=${traceIds[3]}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as any;
    expect(labels.labels[0]).toMatchObject({ traceId: traceIds[3], label: false, labelSource: "agent", annotation: "wrong answer" });

    // Dataset and a re-run of its grader, waited for by the tool while the server's workers grade.
    const grader = (await (await post("/api/sdk/graders", { traceFunctionKey: KEY, name: "no errors", kind: "rule", config: { target: null, check: { op: "noErrors" } }, live: false })).json()) as any;
    const created = (await client.callTool({ name: "save_dataset", arguments: { traceFunctionKey: KEY, name: `${KEY} #1` } })) as any;
    const datasetId = created.structuredContent.dataset.id;
    expect(await text("add_traces_to_dataset", { datasetId, traceIds: [traceIds[3]] })).toMatch(/^Added 1 trace/);
    expect(await text("add_graders_to_dataset", { datasetId, graderIds: [grader.grader.id] })).toMatch(/^Assigned 1 grader/);
    expect(await text("rerun_graders_on_dataset", { datasetId, waitSeconds: 60 })).toMatch(/: completed\. Graded 1 trace\(s\) with 1 grader\(s\)/);
    expect(await text("get_grader_labels", { traceIds: [traceIds[3]] })).toContain(`grader no errors (${grader.grader.id}, active, version 1): PASS`);
    const dataset = (await (await fetch(`${base}/api/sdk/datasets/${datasetId}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as any;
    expect(dataset.dataset).toMatchObject({ traceCount: 1, graders: [{ id: grader.grader.id }] });
    await client.close();
  });

  it("answers plugin-shaped calls: id 1 everywhere, no initialized notification, 6 at once on one session; 404 for an unknown session; 401 without a key", async () => {
    const accept = { accept: "application/json, text/event-stream" };
    const init = await post("/mcp", { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "bitfab-claude-plugin", version: "0.9.74" } } }, accept);
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    const answers = await Promise.all(traceIds.map((id) =>
      post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_traces", arguments: { traceIds: [id] } } }, { ...accept, "mcp-session-id": session })
        .then(async (r) => ({ status: r.status, body: (await r.json()) as any }))));
    answers.forEach((a, i) => {
      expect(a.status).toBe(200);
      expect(a.body.id).toBe(1);
      expect(a.body.result.content[0].text).toContain(`Trace [ID: ${traceIds[i]}]`);
      expect(a.body.result.content[0].text).toContain(`answer ${i}`);
    });
    const stale = await post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_trace_functions", arguments: {} } }, { ...accept, "mcp-session-id": "stale" });
    expect(stale.status).toBe(404);
    const anonymous = await fetch(`${base}/api/mcp`, { method: "POST", headers: { "content-type": "application/json", ...accept }, body: "{}" });
    expect(anonymous.status).toBe(401);
  });
});
