// Two-step agents (one model call, one tool call) on each framework, against the local fake model servers.
// Shared by the SDK's tests and the server-side contract test that reads what they recorded back from Reprise.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { createSdkMcpServer, query as claudeQuery, tool as claudeTool } from "@anthropic-ai/claude-agent-sdk";
import { tool as langchainTool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { Agent, OpenAIResponsesModel, Runner, setTraceProcessors, setTracingDisabled, tool as agentsTool } from "@openai/agents";
import { generateText, stepCountIs, tool as aiTool, wrapLanguageModel } from "ai";
import OpenAI from "openai";
import { z } from "zod";
import type { Reprise } from "../../src/client.js";
import { instrumentClaudeAgentQuery } from "../../src/integrations/claude-agent-sdk/index.js";
import { RepriseLangGraphHandler } from "../../src/integrations/langgraph/index.js";
import { createOpenAIAgentsProcessor } from "../../src/integrations/openai-agents/index.js";
import { repriseMiddleware, traceTools } from "../../src/integrations/vercel-ai/index.js";
import { TOOL_NAME } from "./fake-models.js";

/** The tool every scenario offers. */
export const weather = async ({ city }: { city: string }) => `sunny in ${city}`;

/** OpenAI Agents SDK: the agent calls the model once and stops on its first tool call. Starts its own trace. */
export async function runOpenAIAgents(client: Reprise, openaiUrl: string, workflowName = "weather workflow"): Promise<unknown> {
  setTracingDisabled(false); // the Agents SDK turns tracing off when NODE_ENV is "test"
  setTraceProcessors([createOpenAIAgentsProcessor(client)]);
  try {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${openaiUrl}/v1`, maxRetries: 0 });
    const agent = new Agent({
      name: "Weather agent",
      model: new OpenAIResponsesModel(openai, "gpt-fake"),
      tools: [agentsTool({ name: TOOL_NAME, description: "Weather of a city", parameters: z.object({ city: z.string() }), execute: weather })],
      toolUseBehavior: "stop_on_first_tool",
    });
    return (await new Runner({ workflowName }).run(agent, "Weather in Paris?")).finalOutput;
  } finally {
    setTraceProcessors([]);
  }
}

/** LangGraph: agent node (one chat model call) → tools node (one tool call) → end. Starts its own trace. */
export async function runLangGraph(client: Reprise, openaiUrl: string): Promise<unknown> {
  const getWeather = langchainTool(weather, { name: TOOL_NAME, description: "Weather of a city", schema: z.object({ city: z.string() }) });
  const llm = new ChatOpenAI({ model: "gpt-fake", apiKey: "sk-test", maxRetries: 0, configuration: { baseURL: `${openaiUrl}/v1` } }).bindTools([getWeather]);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state: typeof MessagesAnnotation.State) => ({ messages: [await llm.invoke(state.messages)] }))
    .addNode("tools", new ToolNode([getWeather]))
    .addEdge(START, "agent")
    .addEdge("agent", "tools")
    .addEdge("tools", END)
    .compile();
  const result = await graph.invoke({ messages: [{ role: "user", content: "Weather in Paris?" }] }, { callbacks: [new RepriseLangGraphHandler(client)] });
  return result.messages.at(-1)?.content;
}

/** The MCP tool name Claude Code gives the in-process weather tool. */
export const CLAUDE_TOOL = `mcp__weather__${TOOL_NAME}`;

/** Claude Agent SDK: the bundled Claude Code CLI against a local Anthropic API; one tool use, then the answer. */
export async function runClaudeAgent(client: Reprise, anthropicUrl: string): Promise<unknown> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-claude-"));
  try {
    const server = createSdkMcpServer({
      name: "weather",
      tools: [claudeTool(TOOL_NAME, "Weather of a city", { city: z.string() }, async (args) => ({ content: [{ type: "text" as const, text: await weather(args) }] }))],
    });
    const query = instrumentClaudeAgentQuery(client, claudeQuery);
    let result: unknown;
    for await (const message of query({ prompt: "Weather in Paris?", options: claudeOptions(server, home, anthropicUrl) })) {
      if (message.type === "result") result = (message as { result?: unknown }).result;
    }
    return result;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** Options that keep Claude Code offline and away from the user's own settings. */
export function claudeOptions(server: ReturnType<typeof createSdkMcpServer>, home: string, anthropicUrl: string) {
  return {
    model: "claude-fake",
    cwd: home,
    settingSources: [],
    mcpServers: { weather: server },
    allowedTools: [CLAUDE_TOOL],
    maxTurns: 4,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: anthropicUrl,
      ANTHROPIC_API_KEY: "sk-ant-test",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
    },
  } satisfies NonNullable<Parameters<typeof claudeQuery>[0]["options"]>;
}

/** AI SDK: generateText with one step (one model call that asks for the tool, and the tool call), in withTrace. */
export async function runVercelAI(client: Reprise, openaiUrl: string, traceFunctionKey = "weather"): Promise<unknown> {
  const model = wrapLanguageModel({ model: createOpenAI({ apiKey: "sk-test", baseURL: `${openaiUrl}/v1` }).chat("gpt-fake"), middleware: repriseMiddleware(client) });
  const tools = traceTools(client, { [TOOL_NAME]: aiTool({ description: "Weather of a city", inputSchema: z.object({ city: z.string() }), execute: weather }) });
  const agent = client.withTrace(traceFunctionKey, async (prompt: string) => {
    const result = await generateText({ model, tools, stopWhen: stepCountIs(1), prompt });
    return result.toolResults.map((r) => r.output);
  });
  return agent("Weather in Paris?");
}
