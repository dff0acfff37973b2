// The integrations never break the framework: a client without an API key records nothing and hands the
// framework's own objects back untouched, and malformed callback arguments only cost a (throttled) warning.
import { describe, expect, it } from "vitest";
import { Reprise } from "../../src/client.js";
import { instrumentClaudeAgentQuery } from "../../src/integrations/claude-agent-sdk/index.js";
import { RepriseLangGraphHandler } from "../../src/integrations/langgraph/index.js";
import { createOpenAIAgentsProcessor } from "../../src/integrations/openai-agents/index.js";
import { repriseMiddleware, traceTools } from "../../src/integrations/vercel-ai/index.js";
import { captureLogger } from "../helpers/fake-server.js";
import { clientAndServer, track } from "../helpers/client.js";
import { completions, recordedSpans } from "./recorded.js";

async function* messages() {
  yield { type: "assistant", message: { id: "m1", content: [] } };
}

describe("integration robustness", () => {
  it("with tracing disabled, hands back the framework's own objects and records nothing", async () => {
    const { logger } = captureLogger();
    const disabled = track(new Reprise({ apiKey: "", logger }));
    const generator = messages();
    expect(instrumentClaudeAgentQuery(disabled, (_params: unknown) => generator)({ prompt: "hi" })).toBe(generator);
    const result = { content: [], usage: {} };
    expect(await repriseMiddleware(disabled).wrapGenerate({ doGenerate: async () => result, params: {}, model: {} })).toBe(result);
    const execute = async () => "ok";
    const tools = traceTools(disabled, { t: { execute } });
    expect(await (tools.t as { execute: (i: unknown, o: unknown) => Promise<string> }).execute({}, {})).toBe("ok");
  });

  it("swallows malformed callback arguments with a warning", async () => {
    const { client, server, warnings } = await clientAndServer();
    const processor = createOpenAIAgentsProcessor(client);
    await expect(processor.onTraceStart(null as never)).resolves.toBeUndefined();
    await expect(processor.onSpanStart({ spanId: "s", traceId: "t", parentId: null, spanData: null, error: null, startedAt: null } as never)).resolves.toBeUndefined();
    await expect(processor.onSpanEnd({ spanId: "unknown" } as never)).resolves.toBeUndefined();
    const handler = new RepriseLangGraphHandler(client);
    expect(() => handler.handleLLMEnd(undefined as never, "no-such-run")).not.toThrow();
    expect(() => handler.handleChainStart(null, undefined, "r1", undefined, undefined, undefined)).not.toThrow();
    expect(() => handler.handleChainEnd(undefined, "r1")).not.toThrow();
    await client.flushTraces();
    expect(warnings.some((w) => w.includes("openai-agents integration failed internally"))).toBe(true);
    expect(recordedSpans(server).map((s) => s.name)).toEqual(["chain"]);
  });

  it("a Claude query never iterated holds no trace open; one abandoned early is ended", async () => {
    const { client, server } = await clientAndServer();
    const query = instrumentClaudeAgentQuery(client, (_params: unknown) => messages());
    client.withTrace("outer", () => void query({ prompt: "never read" }))();
    await client.flushTraces();
    expect(completions(server)).toEqual([expect.objectContaining({ traceFunctionKey: "outer", expectedSpanCount: 1 })]);
    for await (const _ of query({ prompt: "left early" })) break;
    await client.flushTraces();
    const root = recordedSpans(server).find((s) => s.name === "claude-agent-query")!;
    expect(root.contexts).toContainEqual({ stoppedEarly: true });
    expect(recordedSpans(server).filter((s) => s.type === "llm")).toHaveLength(1);
  });

  it("refuses something that is not a Reprise client at construction, with a clear message", () => {
    expect(() => new RepriseLangGraphHandler({} as never)).toThrow(/Pass a Reprise client/);
  });
});
