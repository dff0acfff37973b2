// The Claude Agent SDK run for real: its bundled Claude Code CLI talks to a local Anthropic Messages API
// (ANTHROPIC_BASE_URL) and calls an in-process MCP tool; the instrumented `query` records what it sees.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSdkMcpServer, query as claudeQuery, tool } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { instrumentClaudeAgentQuery } from "../../src/integrations/claude-agent-sdk/index.js";
import { clientAndServer, router } from "../helpers/client.js";
import { FINAL_TEXT, type FakeModelServer, startFakeAnthropic, TOOL_NAME, USAGE } from "./fake-models.js";
import { completions, recordedSpans, shapes, spanNamed } from "./recorded.js";
import { CLAUDE_TOOL, claudeOptions } from "./scenarios.js";

const MCP_TOOL = CLAUDE_TOOL;

describe("Claude Agent SDK integration", () => {
  let model: FakeModelServer;
  let home: string;
  beforeAll(async () => {
    model = await startFakeAnthropic(MCP_TOOL);
    home = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-claude-"));
  });
  afterAll(async () => {
    await model.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** Query parameters for a two-step agent: one model call that asks for the tool, the tool, then the answer. */
  function params(prompt = "Weather in Paris?", baseUrl = model.url) {
    const weather = createSdkMcpServer({
      name: "weather",
      tools: [tool(TOOL_NAME, "Weather of a city", { city: z.string() }, async ({ city }) => ({ content: [{ type: "text" as const, text: `sunny in ${city}` }] }))],
    });
    return { prompt, options: claudeOptions(weather, home, baseUrl) };
  }

  it("records the query, each assistant turn with model and usage, and the tool use with its result", async () => {
    const { client, server } = await clientAndServer();
    const query = instrumentClaudeAgentQuery(client, claudeQuery, { traceFunctionKey: "weather-bot" });
    const types: string[] = [];
    let result: unknown;
    for await (const message of query(params())) {
      types.push(message.type);
      if (message.type === "result" && message.subtype === "success") result = message.result;
    }
    expect(result).toBe(FINAL_TEXT);
    expect(types).toContain("assistant");
    expect(await client.flushTraces()).toBe(true);

    const spans = recordedSpans(server);
    expect(shapes(spans)).toEqual([
      {
        name: "claude-agent-query",
        type: "agent",
        children: [
          { name: "claude-fake", type: "llm" },
          { name: MCP_TOOL, type: "function" },
          { name: "claude-fake", type: "llm" },
        ],
      },
    ]);
    for (const span of spans) {
      expect(span.instrumentation).toBe("claude-agent-sdk");
      expect(span.source).toBe("typescript-sdk-claude-agent-sdk");
    }
    const turns = spans.filter((s) => s.type === "llm");
    for (const turn of turns) {
      // Claude Code reports each turn's usage as of the start of its stream (output tokens counted so far).
      expect(turn.contexts).toContainEqual(expect.objectContaining({ model: "claude-fake", inputTokens: USAGE.input, cacheReadTokens: 0, cacheCreationTokens: 0 }));
    }
    const toolSpan = spanNamed(spans, MCP_TOOL);
    expect(toolSpan.data).toMatchObject({ input: { city: "Paris" }, output: "sunny in Paris" });
    expect(toolSpan.contexts).toContainEqual({ toolUseId: "toolu_1" });
    const root = spanNamed(spans, "claude-agent-query");
    expect(root.data.input).toEqual({ prompt: "Weather in Paris?", model: "claude-fake" });
    expect(root.data.output).toMatchObject({ subtype: "success", result: FINAL_TEXT, num_turns: 2 });
    const [completion] = completions(server);
    // Titled with the query's name, not the trace function key.
    expect(completion).toMatchObject({ traceFunctionKey: "weather-bot", name: "claude-agent-query", expectedSpanCount: 4 });
    expect(completion!.externalTrace.metadata).toMatchObject({ num_turns: 2, usage: expect.objectContaining({ input_tokens: 2 * USAGE.input, output_tokens: 2 * USAGE.output }) });
  });

  it("counts each turn's final output tokens when partial messages are streamed", async () => {
    const { client, server } = await clientAndServer();
    const query = instrumentClaudeAgentQuery(client, claudeQuery);
    const p = params();
    for await (const _ of query({ ...p, options: { ...p.options, includePartialMessages: true } })) {
      // drain
    }
    await client.flushTraces();
    const turns = recordedSpans(server).filter((s) => s.type === "llm");
    expect(turns).toHaveLength(2);
    for (const turn of turns) expect(turn.contexts).toContainEqual(expect.objectContaining({ inputTokens: USAGE.input, outputTokens: USAGE.output }));
  });

  it("nests under the active withTrace", async () => {
    const { client, server } = await clientAndServer();
    const query = instrumentClaudeAgentQuery(client, claudeQuery);
    const agent = client.withTrace("support", async (prompt: string) => {
      let answer: unknown;
      for await (const message of query(params(prompt))) if (message.type === "result") answer = (message as { result?: unknown }).result;
      return answer;
    });
    expect(await agent("Weather in Paris?")).toBe(FINAL_TEXT);
    await client.flushTraces();
    const spans = recordedSpans(server);
    expect(spanNamed(spans, "claude-agent-query").parentId).toBe(spanNamed(spans, "support").id);
    expect(completions(server)).toEqual([expect.objectContaining({ traceFunctionKey: "support", expectedSpanCount: 5 })]);
  });

  it("never changes what the query yields or throws, and records the failure", async () => {
    const drain = async (q: AsyncIterable<unknown>) => {
      const types: string[] = [];
      try {
        for await (const message of q) types.push(`${(message as { type: string }).type}/${(message as { subtype?: string }).subtype ?? ""}`);
      } catch (error) {
        return { types, error: error as Error };
      }
      return { types, error: undefined };
    };
    const untraced = await drain(claudeQuery(params("hi", `${model.url}/fail`)));
    const { client, server } = await clientAndServer();
    const q = instrumentClaudeAgentQuery(client, claudeQuery)(params("hi", `${model.url}/fail`));
    expect(typeof q.interrupt).toBe("function"); // the SDK's control methods are still there
    const traced = await drain(q);
    expect(traced.types).toEqual(untraced.types);
    expect(traced.error?.message).toBe(untraced.error?.message);
    expect(traced.error !== undefined || traced.types.at(-1)?.startsWith("result/error")).toBe(true);
    await client.flushTraces();
    const root = spanNamed(recordedSpans(server), "claude-agent-query");
    expect(root.data.error).toBeTruthy();
  });

  it("sends its spans with content even when the sim plan turns their nodes off", async () => {
    const plan = { nodes: ["claude-fake", MCP_TOOL].map((name) => ({ traceFunctionKey: "claude-agent-sdk", name, captureContent: false })) };
    const { client, server } = await clientAndServer(router({ "GET /api/sdk/sim-plan": () => ({ body: plan }) }), { disableSimPlan: false });
    for await (const _ of instrumentClaudeAgentQuery(client, claudeQuery)(params())) {
      // drain
    }
    await client.flushTraces();
    expect(spanNamed(recordedSpans(server), MCP_TOOL).data.output).toBe("sunny in Paris");
  });
});
