// The mapping of docs/otel.md, one table per convention: span attributes and events in, what Reprise
// stores out (type, model, counted tokens, messages, session, metadata).
import { describe, expect, it } from "vitest";
import type { TOtelSpan } from "../otel-span.ts";
import { mapSpan, type TMappedSpan } from "./map-span.ts";

function span(attributes: Record<string, unknown>, extra: Partial<TOtelSpan> = {}): TOtelSpan {
  return {
    traceId: "a".repeat(32), spanId: "b".repeat(16), parentSpanId: null, remoteParent: false, name: "span", kind: 1,
    startTime: null, endTime: null, attributes, events: [], links: [], status: { code: 0, message: null },
    resource: {}, scope: { name: null, version: null }, ...extra,
  };
}

interface Case {
  name: string;
  span: TOtelSpan;
  expected: Partial<TMappedSpan>;
}

const user = (content: string) => ({ role: "user", content });
const assistant = (content: string | null, more: Record<string, unknown> = {}) => ({ role: "assistant", content, ...more });

const genAi: Case[] = [
  {
    name: "chat span, current attributes",
    span: span({
      "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o", "gen_ai.response.model": "gpt-4o-2024",
      "gen_ai.usage.input_tokens": 10, "gen_ai.usage.output_tokens": 3, "gen_ai.usage.cache_read.input_tokens": 4,
      "gen_ai.usage.some_future_count": 7, "gen_ai.conversation.id": "c1",
      "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "hi" }] }]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "t1", name: "lookup", arguments: { q: "x" } }], finish_reason: "tool_call" }]),
      "gen_ai.tool.definitions": JSON.stringify([{ type: "function", name: "lookup" }]),
    }),
    expected: {
      convention: "otel-genai", type: "llm", model: "gpt-4o-2024", sessionId: "c1",
      tokens: { input: 10, output: 3, cached: 4, total: null },
      input: [user("hi")],
      output: [assistant(null, { tool_calls: [{ id: "t1", type: "function", function: { name: "lookup", arguments: { q: "x" } } }], finish_reason: "tool_call" })],
      tools: [{ type: "function", name: "lookup" }],
      metadata: { "gen_ai.usage.some_future_count": 7 },
    },
  },
  {
    name: "older event-based messages (span events), prompt/completion token names",
    span: span(
      { "gen_ai.system": "openai", "gen_ai.request.model": "m", "gen_ai.usage.prompt_tokens": 5, "gen_ai.usage.completion_tokens": 2 },
      {
        events: [
          { name: "gen_ai.system.message", time: null, attributes: { content: "be nice" } },
          { name: "gen_ai.user.message", time: null, attributes: { content: "hello" } },
          { name: "gen_ai.choice", time: null, attributes: { index: 0, finish_reason: "stop", message: JSON.stringify({ role: "assistant", content: "hey" }) } },
        ],
      },
    ),
    expected: {
      type: "llm", model: "m", tokens: { input: 5, output: 2, cached: null, total: null },
      input: [{ role: "system", content: "be nice" }, user("hello")],
      output: [assistant("hey", { finish_reason: "stop" })],
      metadata: { "gen_ai.system": "openai" },
    },
  },
  {
    name: "log-record events with bodies (the JS OpenAI instrumentation)",
    span: span({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" }, {
      events: [
        { name: "gen_ai.user.message", time: null, attributes: { "gen_ai.system": "openai" }, body: { content: "q" } },
        { name: "gen_ai.choice", time: null, attributes: {}, body: { index: 0, finish_reason: "stop", message: { content: "a" } } },
      ],
    }),
    expected: { input: [user("q")], output: [assistant("a", { finish_reason: "stop" })] },
  },
  {
    name: "agent and tool spans; an agent's roll-up usage is not counted",
    span: span({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "helper", "gen_ai.usage.input_tokens": 99 }),
    expected: { type: "agent", tokens: null, metadata: { "gen_ai.agent.name": "helper", "gen_ai.usage.input_tokens": 99 } },
  },
  {
    name: "execute_tool with arguments and result",
    span: span({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "add", "gen_ai.tool.call.arguments": '{"a":1}', "gen_ai.tool.call.result": "2" }),
    expected: { type: "function", input: { a: 1 }, output: "2" },
  },
  {
    name: "error status with an exception event",
    span: span({ "gen_ai.operation.name": "chat" }, { status: { code: 2, message: null }, events: [{ name: "exception", time: null, attributes: { "exception.type": "RateLimitError", "exception.message": "slow down" } }] }),
    expected: { error: "RateLimitError: slow down" },
  },
];

const openInference: Case[] = [
  {
    name: "LLM span with flattened messages and tool calls",
    span: span({
      "openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini", "llm.provider": "openai",
      "llm.token_count.prompt": 8, "llm.token_count.completion": 2, "llm.token_count.total": 10, "llm.token_count.prompt_details.cache_read": 1,
      "llm.input_messages.0.message.role": "system", "llm.input_messages.0.message.content": "sys",
      "llm.input_messages.1.message.role": "user", "llm.input_messages.1.message.content": "2+2?",
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c1",
      "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "calc",
      "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"e":"2+2"}',
      "input.value": '{"model":"gpt-4o-mini"}', "input.mime_type": "application/json",
      "session.id": "s1", "llm.tools.0.tool.json_schema": '{"type":"function","function":{"name":"calc"}}',
    }),
    expected: {
      convention: "openinference", type: "llm", model: "gpt-4o-mini", sessionId: "s1",
      tokens: { input: 8, output: 2, cached: 1, total: 10 },
      input: [{ role: "system", content: "sys" }, user("2+2?")],
      output: [assistant(null, { tool_calls: [{ id: "c1", type: "function", function: { name: "calc", arguments: { e: "2+2" } } }] })],
      tools: [{ type: "function", function: { name: "calc" } }],
      metadata: { "llm.provider": "openai" },
    },
  },
  {
    name: "chain span with input.value / output.value",
    span: span({ "openinference.span.kind": "CHAIN", "input.value": "question", "input.mime_type": "text/plain", "output.value": '{"answer":4}', "output.mime_type": "application/json" }),
    expected: { type: "custom", input: "question", output: { answer: 4 }, tokens: null },
  },
  { name: "tool span", span: span({ "openinference.span.kind": "TOOL", "tool.name": "calc" }), expected: { type: "function", metadata: { "tool.name": "calc" } } },
  { name: "agent span", span: span({ "openinference.span.kind": "AGENT" }), expected: { type: "agent" } },
  { name: "guardrail span", span: span({ "openinference.span.kind": "GUARDRAIL" }), expected: { type: "guardrail" } },
];

const openLlmetry: Case[] = [
  {
    name: "chat span with indexed prompts and completions",
    span: span({
      "llm.request.type": "chat", "gen_ai.system": "OpenAI", "gen_ai.request.model": "gpt-4", "gen_ai.response.model": "gpt-4-0613",
      "gen_ai.usage.prompt_tokens": 9, "gen_ai.usage.completion_tokens": 4, "llm.usage.total_tokens": 13,
      "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "tell a joke",
      "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "knock knock", "gen_ai.completion.0.finish_reason": "stop",
      "traceloop.association.properties.session_id": "sess",
      "llm.request.functions.0.name": "f", "llm.request.functions.0.parameters": '{"type":"object"}',
    }),
    expected: {
      convention: "openllmetry", type: "llm", model: "gpt-4-0613", sessionId: "sess",
      tokens: { input: 9, output: 4, cached: null, total: 13 },
      input: [user("tell a joke")], output: [assistant("knock knock", { finish_reason: "stop" })],
      tools: [{ name: "f", parameters: { type: "object" } }],
      metadata: { "gen_ai.system": "OpenAI" },
    },
  },
  {
    name: "workflow and task spans with entity input and output",
    span: span({ "traceloop.span.kind": "workflow", "traceloop.workflow.name": "jokes", "traceloop.entity.input": '{"args":["x"]}', "traceloop.entity.output": '"done"' }),
    expected: { type: "custom", input: { args: ["x"] }, output: '"done"', metadata: { "traceloop.workflow.name": "jokes" } },
  },
  {
    // What @traceloop/node-server-sdk 0.27 sends: the standard GenAI names, routed here by the workflow name.
    name: "chat span in a workflow with the current GenAI attributes (they win)",
    span: span({
      "traceloop.workflow.name": "answer-question", "gen_ai.provider.name": "openai", "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "m", "gen_ai.response.model": "m-1", "gen_ai.usage.input_tokens": 20, "gen_ai.usage.output_tokens": 7, "gen_ai.usage.total_tokens": 27,
      "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "hi" }] }]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "hey" }], finish_reason: "stop" }]),
      "gen_ai.system_instructions": JSON.stringify([{ type: "text", content: "be brief" }]),
      "gen_ai.tool.definitions": JSON.stringify([{ type: "function", name: "lookup" }]),
      "gen_ai.conversation.id": "c9",
    }),
    expected: {
      convention: "openllmetry", type: "llm", model: "m-1", sessionId: "c9",
      tokens: { input: 20, output: 7, cached: null, total: 27 },
      input: [user("hi")], output: [assistant("hey", { finish_reason: "stop" })],
      systemInstructions: [{ type: "text", content: "be brief" }], tools: [{ type: "function", name: "lookup" }],
      metadata: { "traceloop.workflow.name": "answer-question", "gen_ai.provider.name": "openai" },
    },
  },
  {
    name: "a GenAI operation names the type over traceloop.span.kind; tool arguments and result",
    span: span({ "traceloop.span.kind": "task", "gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.arguments": '{"q":1}', "gen_ai.tool.call.result": '"r"', "traceloop.entity.input": "{}" }),
    expected: { type: "function", tokens: null, input: { q: 1 }, output: '"r"' },
  },
  {
    name: "an operation GenAI does not name keeps the convention's type",
    span: span({ "traceloop.span.kind": "agent", "gen_ai.operation.name": "agent_step", "gen_ai.usage.input_tokens": 3 }),
    expected: { type: "agent", tokens: null, metadata: {} },
  },
  { name: "tool span", span: span({ "traceloop.span.kind": "tool" }), expected: { type: "function" } },
  { name: "agent span", span: span({ "traceloop.span.kind": "agent" }), expected: { type: "agent" } },
];

const vercel: Case[] = [
  {
    name: "AI SDK 7's LegacyOpenTelemetry: runtime context as ai.settings.context.*, GenAI usage beside ai.usage",
    span: span({
      "ai.operationId": "ai.generateText.doGenerate", "ai.model.id": "m", "ai.settings.context.sessionId": "s-42",
      "ai.usage.inputTokens": 20, "ai.usage.cachedInputTokens": 3, "ai.usage.totalTokens": 27, "gen_ai.usage.input_tokens": 20, "gen_ai.usage.output_tokens": 7,
    }, { name: "ai.generateText.doGenerate" }),
    expected: { type: "llm", sessionId: "s-42", tokens: { input: 20, output: 7, cached: 3, total: 27 }, metadata: {} },
  },
  {
    name: "model call (doGenerate) with messages, response and usage",
    span: span({
      "ai.operationId": "ai.generateText.doGenerate", "ai.model.id": "gpt-4o-mini", "ai.model.provider": "openai.chat", "ai.response.model": "gpt-4o-mini-2024",
      "ai.prompt.messages": JSON.stringify([{ role: "system", content: "sys" }, { role: "user", content: [{ type: "text", text: "hi" }] }]),
      "ai.response.text": "hello", "ai.response.finishReason": "stop", "ai.usage.inputTokens": 6, "ai.usage.outputTokens": 2, "ai.usage.totalTokens": 8,
      "gen_ai.usage.input_tokens": 6, "gen_ai.request.model": "gpt-4o-mini",
    }, { name: "ai.generateText.doGenerate" }),
    expected: {
      convention: "vercel-ai", type: "llm", model: "gpt-4o-mini-2024", tokens: { input: 6, output: 2, cached: null, total: 8 },
      input: [{ role: "system", content: "sys" }, user("hi")], output: [assistant("hello", { finish_reason: "stop" })],
      metadata: { "ai.model.provider": "openai.chat" },
    },
  },
  {
    name: "outer call: prompt object in, text out, usage not counted twice",
    span: span({ "ai.operationId": "ai.generateText", "ai.prompt": JSON.stringify({ system: "s", prompt: "p" }), "ai.response.text": "t", "ai.usage.inputTokens": 6, "ai.telemetry.functionId": "fn" }),
    expected: { type: "custom", tokens: null, input: [{ role: "system", content: "s" }, user("p")], output: [assistant("t")], metadata: { "ai.usage.inputTokens": 6, "ai.telemetry.functionId": "fn" } },
  },
  {
    name: "tool call",
    span: span({ "ai.operationId": "ai.toolCall", "ai.toolCall.name": "weather", "ai.toolCall.args": '{"city":"Oslo"}', "ai.toolCall.result": '{"t":3}' }),
    expected: { type: "function", input: { city: "Oslo" }, output: { t: 3 }, metadata: { "ai.toolCall.name": "weather" } },
  },
];

const plain: Case[] = [
  { name: "an HTTP span without GenAI attributes", span: span({ "http.route": "/x" }), expected: { convention: "otel", type: "custom", model: null, tokens: null, metadata: { "http.route": "/x" } } },
  { name: "reprise.trace_function is read, not metadata", span: span({ "reprise.trace_function": "fn" }), expected: { traceFunction: "fn", metadata: {} } },
];

describe.each([
  ["OpenTelemetry GenAI", genAi],
  ["OpenInference", openInference],
  ["OpenLLMetry / Traceloop", openLlmetry],
  ["Vercel AI SDK", vercel],
  ["plain OpenTelemetry", plain],
])("%s mapping", (_convention, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(mapSpan(c.span)).toMatchObject(c.expected);
  });
});
