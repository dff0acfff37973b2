// OpenInference (Arize Phoenix's instrumentations): openinference.span.kind, llm.input_messages.N.*,
// llm.output_messages.N.*, input.value / output.value, llm.token_count.*, llm.model_name, session.id.
import type { TSpanType } from "../../write/span-fields.ts";
import type { TOtelSpan } from "../otel-span.ts";
import { contentOf, toolCall, type TChatMessage } from "./messages.ts";
import type { TConventionFields, TTokens } from "./types.ts";
import { count, parseJsonish, str, subRows, type AttributeReader } from "./values.ts";

const TYPE_OF_KIND: Record<string, TSpanType> = {
  LLM: "llm",
  EMBEDDING: "llm",
  TOOL: "function",
  AGENT: "agent",
  GUARDRAIL: "guardrail",
};

function messagesOf(r: AttributeReader, prefix: string): TChatMessage[] | undefined {
  const rows = r.takeIndexed(prefix);
  if (rows.length === 0) return undefined;
  return rows.map((row) => {
    const contents = subRows(row, "message.contents.").map((c) =>
      c["message_content.type"] === "image" ? { type: "image", url: c["message_content.image.image.url"] ?? null } : { type: "text", text: c["message_content.text"] ?? "" },
    );
    const m: TChatMessage = { role: str(row["message.role"]) ?? "user", content: row["message.content"] ?? (contents.length ? contentOf(contents) : null) };
    const calls = subRows(row, "message.tool_calls.");
    if (calls.length > 0) {
      m.tool_calls = calls.map((c) => toolCall(c["tool_call.id"], c["tool_call.function.name"], parseJsonish(c["tool_call.function.arguments"])));
    }
    if (str(row["message.tool_call_id"])) m.tool_call_id = row["message.tool_call_id"] as string;
    if (str(row["message.name"])) m.name = row["message.name"] as string;
    return m;
  });
}

/** input.value / output.value: JSON when the mime type (or the text) says so. */
function valueOf(r: AttributeReader, key: "input" | "output"): unknown {
  const value = r.take(`${key}.value`);
  const mime = str(r.take(`${key}.mime_type`));
  if (value === undefined) return undefined;
  return mime === "text/plain" ? value : parseJsonish(value);
}

export function mapOpenInference(_span: TOtelSpan, r: AttributeReader): TConventionFields {
  const kind = (str(r.take("openinference.span.kind")) ?? "").toUpperCase();
  const type = TYPE_OF_KIND[kind] ?? "custom";
  const model = str(r.take("llm.model_name", "embedding.model_name"));
  const tokens: TTokens = {
    input: count(r.take("llm.token_count.prompt")),
    output: count(r.take("llm.token_count.completion")),
    cached: count(r.take("llm.token_count.prompt_details.cache_read")),
    total: count(r.take("llm.token_count.total")),
  };
  const inputMessages = messagesOf(r, "llm.input_messages.");
  const outputMessages = messagesOf(r, "llm.output_messages.");
  const inputValue = valueOf(r, "input");
  const outputValue = valueOf(r, "output");
  const tools = r.takeIndexed("llm.tools.").map((t) => parseJsonish(t["tool.json_schema"] ?? t));
  return {
    type,
    model,
    tokens: type === "llm" && Object.values(tokens).some((v) => v !== null) ? tokens : null,
    input: inputMessages ?? inputValue,
    output: outputMessages ?? outputValue,
    tools: tools.length ? tools : undefined,
    sessionId: str(r.take("session.id")),
  };
}
