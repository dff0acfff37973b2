import type { SpanType } from "../../tracing/types.js";
import { contextList, num, parseJson, record, str } from "../core/values.js";

/** The parts of an OpenAI Agents span's `spanData` the integration reads (its types vary by version). */
export type AgentsSpanData = { type: string; [key: string]: unknown };

const TYPES: Record<string, SpanType> = {
  agent: "agent",
  function: "function",
  mcp_tools: "function",
  response: "llm",
  generation: "llm",
  transcription: "llm",
  speech: "llm",
  handoff: "handoff",
  guardrail: "guardrail",
};

/** Span type of an Agents span: agent runs, model calls, tool calls, handoffs and guardrails; the rest `custom`. */
export function spanTypeOf(data: AgentsSpanData): SpanType {
  return TYPES[data.type] ?? "custom";
}

/** A stable span name (sim plan nodes match on it): the agent, tool or guardrail name, else the span kind. */
export function spanNameOf(data: AgentsSpanData): string {
  const named = typeof data.name === "string" && data.name !== "" ? data.name : undefined;
  switch (data.type) {
    case "handoff":
      return `handoff to ${str(data.to_agent) ?? "agent"}`;
    case "task":
      return `task ${named ?? ""}`.trim();
    case "turn":
      return `turn ${typeof data.turn === "number" ? data.turn : ""}`.trim();
    case "mcp_tools":
      return `mcp list tools${data.server ? ` ${str(data.server)}` : ""}`;
    default:
      return named ?? data.type;
  }
}

/** What the step received, as far as the span says (read at end, when the framework has filled it in). */
export function inputOf(data: AgentsSpanData): unknown {
  switch (data.type) {
    case "function":
      return parseJson(data.input);
    case "response":
      return data._input;
    case "generation":
    case "transcription":
    case "speech":
    case "speech_group":
      return data.input;
    case "handoff":
      return { from_agent: data.from_agent, to_agent: data.to_agent };
    default:
      return undefined;
  }
}

/** What the step produced. */
export function outputOf(data: AgentsSpanData): unknown {
  switch (data.type) {
    case "function":
      return parseJson(data.output);
    case "response":
      return data._response;
    case "generation":
    case "transcription":
    case "speech":
      return data.output;
    case "guardrail":
      return { triggered: data.triggered };
    case "mcp_tools":
      return data.result;
    case "custom":
      return data.data;
    default:
      return undefined;
  }
}

/**
 * Model and token usage of a model call, as a span context (`inputTokens`, `outputTokens`, `cachedTokens`,
 * `totalTokens`, `model`). Only model calls carry tokens, so a trace's sum counts each call once; the usage
 * roll-ups of task and turn spans are kept under `usage` instead.
 */
export function contextsOf(data: AgentsSpanData): Array<Record<string, unknown>> {
  if (data.type === "response") {
    const response = record(data._response);
    const usage = record(response?.usage);
    return contextList({
      model: str(response?.model),
      responseId: str(data.response_id),
      inputTokens: num(usage?.input_tokens),
      outputTokens: num(usage?.output_tokens),
      cachedTokens: num(record(usage?.input_tokens_details)?.cached_tokens),
      totalTokens: num(usage?.total_tokens),
    });
  }
  if (data.type === "generation") {
    const usage = record(data.usage);
    return contextList({ model: str(data.model), inputTokens: num(usage?.input_tokens), outputTokens: num(usage?.output_tokens) });
  }
  if ((data.type === "task" || data.type === "turn") && record(data.usage)) return [{ usage: data.usage }];
  if (data.type === "agent") return contextList({ tools: data.tools, handoffs: data.handoffs, output_type: data.output_type });
  return [];
}
