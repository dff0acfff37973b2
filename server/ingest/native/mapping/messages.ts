// Every convention's messages become one shape, the OpenAI chat message most tools read:
// {role, content, tool_calls?, tool_call_id?, name?}. Text-only content is a string; content with
// other parts (images, reasoning, files) stays a list of parts, so nothing is lost.
import { isObject, parseJsonish, str } from "./values.ts";

export interface TChatMessage {
  role: string;
  content: unknown;
  tool_calls?: Array<{ id: string | null; type: "function"; function: { name: string | null; arguments: unknown } }>;
  tool_call_id?: string;
  name?: string;
  finish_reason?: string;
}

export function toolCall(id: unknown, name: unknown, args: unknown): NonNullable<TChatMessage["tool_calls"]>[number] {
  return { id: str(id), type: "function", function: { name: str(name), arguments: args === undefined ? null : args } };
}

/** Content parts → a string when they are all text, else the parts (text parts as {type:"text", text}). */
export function contentOf(parts: unknown[]): unknown {
  const texts: string[] = [];
  for (const p of parts) {
    if (typeof p === "string") texts.push(p);
    else if (isObject(p) && (p.type === "text" || p.type === undefined) && typeof (p.content ?? p.text) === "string") texts.push((p.content ?? p.text) as string);
    else return parts;
  }
  return texts.join("");
}

/**
 * GenAI semantic-convention messages (`gen_ai.input.messages` / `gen_ai.output.messages`):
 * [{role, parts: [{type:"text", content} | {type:"tool_call", id, name, arguments} |
 * {type:"tool_call_response", id, response} | …], finish_reason?}].
 */
export function fromGenAiMessages(value: unknown): TChatMessage[] | undefined {
  const list = parseJsonish(value);
  if (!Array.isArray(list)) return undefined;
  const out: TChatMessage[] = [];
  for (const m of list) {
    if (!isObject(m)) continue;
    const role = str(m.role) ?? "user";
    const parts = Array.isArray(m.parts) ? m.parts : m.content !== undefined ? [m.content] : [];
    const calls = parts.filter((p) => isObject(p) && p.type === "tool_call") as Record<string, unknown>[];
    const responses = parts.filter((p) => isObject(p) && p.type === "tool_call_response") as Record<string, unknown>[];
    const other = parts.filter((p) => !(isObject(p) && (p.type === "tool_call" || p.type === "tool_call_response")));
    for (const r of responses) out.push({ role: "tool", tool_call_id: str(r.id) ?? undefined, content: r.response ?? r.result ?? null });
    if (responses.length > 0 && other.length === 0 && calls.length === 0) continue;
    const message: TChatMessage = { role, content: other.length > 0 ? contentOf(other) : null };
    if (calls.length > 0) message.tool_calls = calls.map((c) => toolCall(c.id, c.name, c.arguments));
    if (str(m.name)) message.name = m.name as string;
    if (str(m.finish_reason)) message.finish_reason = m.finish_reason as string;
    out.push(message);
  }
  return out;
}

/** OpenAI-style messages ({role, content, tool_calls}) as the Vercel AI SDK and others record them. */
export function fromChatLike(value: unknown): TChatMessage[] | undefined {
  const list = parseJsonish(value);
  if (!Array.isArray(list)) return undefined;
  const out: TChatMessage[] = [];
  for (const m of list) {
    if (!isObject(m)) continue;
    const role = str(m.role) ?? "user";
    const content = Array.isArray(m.content) ? m.content : m.content ?? null;
    // The Vercel AI SDK puts tool calls and tool results among the content parts.
    if (Array.isArray(content)) {
      const calls = content.filter((p) => isObject(p) && p.type === "tool-call") as Record<string, unknown>[];
      const results = content.filter((p) => isObject(p) && p.type === "tool-result") as Record<string, unknown>[];
      const other = content.filter((p) => !(isObject(p) && (p.type === "tool-call" || p.type === "tool-result")));
      for (const r of results) out.push({ role: "tool", tool_call_id: str(r.toolCallId) ?? undefined, content: r.output ?? r.result ?? null });
      if (results.length > 0 && calls.length === 0 && other.length === 0) continue;
      const message: TChatMessage = { role, content: other.length > 0 ? contentOf(other) : null };
      if (calls.length > 0) message.tool_calls = calls.map((c) => toolCall(c.toolCallId, c.toolName, c.input ?? c.args));
      out.push(message);
      continue;
    }
    const message: TChatMessage = { role, content };
    if (Array.isArray(m.tool_calls)) {
      message.tool_calls = m.tool_calls.filter(isObject).map((c) => {
        const fn = isObject(c.function) ? c.function : c;
        return toolCall(c.id, fn.name, fn.arguments);
      });
    }
    if (str(m.tool_call_id)) message.tool_call_id = m.tool_call_id as string;
    if (str(m.name)) message.name = m.name as string;
    out.push(message);
  }
  return out;
}
