// The OpenTelemetry GenAI semantic conventions: the current attributes (gen_ai.input.messages,
// gen_ai.output.messages, gen_ai.system_instructions, gen_ai.tool.definitions) and the older messages
// recorded as events (gen_ai.{system,user,assistant,tool}.message and gen_ai.choice, as span events or
// as log records, and the still older gen_ai.content.prompt / gen_ai.content.completion events).
import type { TSpanType } from "../../write/span-fields.ts";
import type { TOtelEvent, TOtelSpan } from "../otel-span.ts";
import { fromChatLike, fromGenAiMessages, type TChatMessage } from "./messages.ts";
import type { TConventionFields, TTokens } from "./types.ts";
import { count, isObject, parseJsonish, str, type AttributeReader } from "./values.ts";

const LLM_OPERATIONS = new Set(["chat", "text_completion", "generate_content", "embeddings", "completion"]);

export function genAiType(operation: string | null, hasModel: boolean, spanName: string): TSpanType {
  const op = (operation ?? "").toLowerCase();
  if (op.includes("guardrail") || /guardrail/i.test(spanName)) return "guardrail";
  if (op.includes("handoff")) return "handoff";
  if (op === "invoke_agent" || op === "create_agent") return "agent";
  if (op === "execute_tool") return "function";
  if (LLM_OPERATIONS.has(op) || (op === "" && hasModel)) return "llm";
  return "custom";
}

export function genAiTokens(r: AttributeReader): TTokens | null {
  const tokens: TTokens = {
    input: count(r.take("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens")),
    output: count(r.take("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens")),
    cached: count(r.take("gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens", "gen_ai.usage.cached_tokens")),
    total: count(r.take("gen_ai.usage.total_tokens", "llm.usage.total_tokens")),
    // Read for cost, and still kept among the span's attributes (docs/otel.md): no convention names it yet.
    reasoning: count(r.attributes["gen_ai.usage.reasoning_tokens"] ?? r.attributes["gen_ai.usage.reasoning.output_tokens"]),
  };
  return Object.values(tokens).some((v) => v !== null) ? tokens : null;
}

const ROLE_OF_EVENT: Record<string, string> = {
  "gen_ai.system.message": "system",
  "gen_ai.user.message": "user",
  "gen_ai.assistant.message": "assistant",
  "gen_ai.tool.message": "tool",
};

/** An event's payload: the log record's body, else its attributes (span events have no body). */
function payloadOf(event: TOtelEvent): Record<string, unknown> {
  const body = parseJsonish(event.body);
  if (isObject(body)) return body;
  if (typeof body === "string") return { ...event.attributes, content: body };
  return event.attributes;
}

function eventMessage(role: string, p: Record<string, unknown>): TChatMessage {
  const content = parseJsonish(p.content ?? p["gen_ai.event.content"] ?? null);
  const m: TChatMessage = { role: str(p.role) ?? role, content: Array.isArray(content) ? content : content ?? null };
  const calls = fromChatLike([{ role, tool_calls: parseJsonish(p.tool_calls) }])?.[0]?.tool_calls;
  if (calls && calls.length > 0) m.tool_calls = calls;
  if (str(p.id) && role === "tool") m.tool_call_id = p.id as string;
  return m;
}

/** Input and output messages from the event-based conventions, in event order. */
export function messagesFromEvents(events: TOtelEvent[]): { input?: TChatMessage[]; output?: TChatMessage[] } {
  const input: TChatMessage[] = [];
  const output: TChatMessage[] = [];
  for (const e of events) {
    const p = payloadOf(e);
    const role = ROLE_OF_EVENT[e.name];
    if (role) input.push(eventMessage(role, p));
    else if (e.name === "gen_ai.choice") {
      const message = isObject(parseJsonish(p.message)) ? (parseJsonish(p.message) as Record<string, unknown>) : p;
      const m = eventMessage("assistant", message);
      if (str(p.finish_reason)) m.finish_reason = p.finish_reason as string;
      output.push(m);
    } else if (e.name === "gen_ai.content.prompt") {
      input.push(...(fromChatLike(p["gen_ai.prompt"]) ?? [{ role: "user", content: p["gen_ai.prompt"] ?? null }]));
    } else if (e.name === "gen_ai.content.completion") {
      output.push(...(fromChatLike(p["gen_ai.completion"]) ?? [{ role: "assistant", content: p["gen_ai.completion"] ?? null }]));
    } else if (e.name === "gen_ai.client.inference.operation.details") {
      input.push(...(fromGenAiMessages(p["gen_ai.input.messages"]) ?? []));
      output.push(...(fromGenAiMessages(p["gen_ai.output.messages"]) ?? []));
    }
  }
  return { ...(input.length ? { input } : {}), ...(output.length ? { output } : {}) };
}

export function mapGenAi(span: TOtelSpan, r: AttributeReader): TConventionFields {
  const operation = str(r.take("gen_ai.operation.name"));
  const model = str(r.take("gen_ai.response.model")) ?? str(r.take("gen_ai.request.model"));
  if (model) r.used.add("gen_ai.request.model");
  const type = genAiType(operation, model !== null, span.name);
  const fromEvents = messagesFromEvents(span.events);
  let input: unknown = fromGenAiMessages(r.take("gen_ai.input.messages")) ?? fromEvents.input;
  let output: unknown = fromGenAiMessages(r.take("gen_ai.output.messages")) ?? fromEvents.output;
  if (type === "function") {
    input ??= parseJsonish(r.take("gen_ai.tool.call.arguments"));
    output ??= parseJsonish(r.take("gen_ai.tool.call.result"));
  }
  // Older instrumentations put the whole prompt and completion in one attribute.
  input ??= fromChatLike(r.take("gen_ai.prompt")) ?? undefined;
  output ??= fromChatLike(r.take("gen_ai.completion")) ?? undefined;
  return {
    type,
    model,
    tokens: type === "llm" ? genAiTokens(r) : null,
    input,
    output,
    systemInstructions: parseJsonish(r.take("gen_ai.system_instructions")),
    tools: parseJsonish(r.take("gen_ai.tool.definitions")),
    sessionId: str(r.take("gen_ai.conversation.id")),
  };
}
