import { toPlain } from "../core/plain.js";
import { contextList, num, record, str } from "../core/values.js";

/** A content block of an Anthropic message (text, thinking, tool_use, tool_result, …). */
export type Block = Record<string, unknown> & { type?: unknown };

/** The content blocks of a message (a string content is one text block). */
export function blocksOf(message: unknown): Block[] {
  const content = record(message)?.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content.filter((b) => record(b) !== undefined) as Block[]) : [];
}

/** Model and token usage of an assistant turn (Anthropic usage names), as a span context. */
export function turnContext(model: unknown, usage: unknown): Array<Record<string, unknown>> {
  const u = record(usage);
  return contextList({
    model: str(model),
    inputTokens: num(u?.input_tokens),
    outputTokens: num(u?.output_tokens),
    cacheReadTokens: num(u?.cache_read_input_tokens),
    cacheCreationTokens: num(u?.cache_creation_input_tokens),
  });
}

/** What a tool returned: its text when it is only text, else the blocks as plain data. */
export function toolResultOutput(block: Block): unknown {
  const content = block.content;
  if (Array.isArray(content) && content.every((c) => record(c)?.type === "text")) {
    const texts = content.map((c) => String(record(c)?.text ?? ""));
    return texts.length === 1 ? texts[0] : texts;
  }
  return toPlain(content);
}

/** The query's summary from its result message (kept as output, and as trace metadata when the query owns the trace). */
export function resultSummary(message: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    ["subtype", "result", "is_error", "num_turns", "total_cost_usd", "duration_ms", "duration_api_ms", "session_id", "usage", "errors", "stop_reason"]
      .filter((key) => message[key] !== undefined)
      .map((key) => [key, toPlain(message[key])]),
  );
}

/** The error a failed result reports. */
export function resultError(message: Record<string, unknown>): Error {
  const errors = Array.isArray(message.errors) ? message.errors.map(String).filter(Boolean) : [];
  return new Error(errors.length > 0 ? errors.join("; ") : `Claude Agent SDK query ended with ${String(message.subtype ?? "an error")}`);
}
