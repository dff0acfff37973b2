// The Vercel AI SDK's experimental_telemetry: ai.operationId, ai.prompt / ai.prompt.messages,
// ai.response.text / ai.response.toolCalls / ai.response.object, ai.toolCall.*, ai.usage.*, ai.model.*.
// The outer span of a call (ai.generateText) carries the same usage as its model calls
// (ai.generateText.doGenerate): only the model calls count tokens.
import type { TSpanType } from "../../write/span-fields.ts";
import type { TOtelSpan } from "../otel-span.ts";
import { fromChatLike, toolCall, type TChatMessage } from "./messages.ts";
import type { TConventionFields, TTokens } from "./types.ts";
import { count, isObject, parseJsonish, str, type AttributeReader } from "./values.ts";

function typeOf(operation: string): TSpanType {
  if (/\.do(Generate|Stream|Embed)$/.test(operation)) return "llm";
  if (operation === "ai.toolCall") return "function";
  return "custom";
}

/** ai.prompt is {system?, prompt?, messages?}; ai.prompt.messages (model calls) is the message list. */
function promptMessages(r: AttributeReader): TChatMessage[] | undefined {
  const messages = fromChatLike(r.take("ai.prompt.messages"));
  if (messages) return messages;
  const prompt = parseJsonish(r.take("ai.prompt"));
  if (!isObject(prompt)) return typeof prompt === "string" ? [{ role: "user", content: prompt }] : undefined;
  const out: TChatMessage[] = [];
  if (typeof prompt.system === "string") out.push({ role: "system", content: prompt.system });
  if (typeof prompt.prompt === "string") out.push({ role: "user", content: prompt.prompt });
  out.push(...(fromChatLike(prompt.messages) ?? []));
  return out.length ? out : undefined;
}

function responseMessage(r: AttributeReader): unknown {
  const text = r.take("ai.response.text");
  const calls = parseJsonish(r.take("ai.response.toolCalls"));
  const object = r.take("ai.response.object");
  const finish = str(r.take("ai.response.finishReason"));
  if (object !== undefined && text === undefined) return parseJsonish(object);
  if (text === undefined && !Array.isArray(calls)) return undefined;
  const m: TChatMessage = { role: "assistant", content: typeof text === "string" ? text : null };
  if (Array.isArray(calls) && calls.length > 0) {
    m.tool_calls = calls.filter(isObject).map((c) => toolCall(c.toolCallId, c.toolName, parseJsonish(c.input ?? c.args)));
  }
  if (finish) m.finish_reason = finish;
  return [m];
}

export function mapVercelAi(span: TOtelSpan, r: AttributeReader): TConventionFields {
  const operation = str(r.take("ai.operationId")) ?? span.name;
  const type = typeOf(operation);
  const model = str(r.take("ai.response.model", "gen_ai.response.model")) ?? str(r.take("ai.model.id", "gen_ai.request.model"));
  r.take("ai.model.id", "gen_ai.request.model");
  let tokens: TTokens | null = null;
  if (type === "llm") {
    tokens = {
      input: count(r.take("ai.usage.inputTokens", "ai.usage.promptTokens", "gen_ai.usage.input_tokens")),
      output: count(r.take("ai.usage.outputTokens", "ai.usage.completionTokens", "gen_ai.usage.output_tokens")),
      cached: count(r.take("ai.usage.cachedInputTokens", "ai.usage.inputTokenDetails.cacheReadTokens")),
      total: count(r.take("ai.usage.totalTokens")),
    };
    for (const key of ["gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"]) r.take(key);
    if (!Object.values(tokens).some((v) => v !== null)) tokens = null;
  }
  if (type === "function") {
    return {
      type,
      model,
      tokens,
      input: parseJsonish(r.take("ai.toolCall.args", "ai.toolCall.input")),
      output: parseJsonish(r.take("ai.toolCall.result", "ai.toolCall.output")),
    };
  }
  const tools = r.take("ai.prompt.tools");
  return {
    type,
    model,
    tokens,
    input: promptMessages(r),
    output: responseMessage(r),
    tools: Array.isArray(tools) ? tools.map(parseJsonish) : undefined,
    sessionId: str(r.take("ai.telemetry.metadata.sessionId", "ai.settings.context.sessionId")),
  };
}
