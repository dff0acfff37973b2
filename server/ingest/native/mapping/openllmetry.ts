// OpenLLMetry (Traceloop): gen_ai.prompt.N.* / gen_ai.completion.N.* (and the older llm.prompts.N.* /
// llm.completions.N.*), llm.request.type, traceloop.span.kind, traceloop.entity.input / output,
// llm.request.functions.N.*, traceloop.association.properties.*.
import type { TSpanType } from "../../write/span-fields.ts";
import type { TOtelSpan } from "../otel-span.ts";
import { genAiTokens } from "./genai.ts";
import { toolCall, type TChatMessage } from "./messages.ts";
import type { TConventionFields } from "./types.ts";
import { parseJsonish, str, subRows, type AttributeReader } from "./values.ts";

function messagesOf(r: AttributeReader, ...prefixes: string[]): TChatMessage[] | undefined {
  for (const prefix of prefixes) {
    const rows = r.takeIndexed(prefix);
    if (rows.length === 0) continue;
    return rows.map((row) => {
      const m: TChatMessage = { role: str(row.role) ?? "user", content: parseJsonish(row.content ?? null) };
      const calls = subRows(row, "tool_calls.");
      if (calls.length > 0) m.tool_calls = calls.map((c) => toolCall(c.id, c.name, parseJsonish(c.arguments)));
      if (str(row.tool_call_id)) m.tool_call_id = row.tool_call_id as string;
      if (str(row.finish_reason)) m.finish_reason = row.finish_reason as string;
      return m;
    });
  }
  return undefined;
}

function typeOf(requestType: string | null, spanKind: string | null): TSpanType {
  if (requestType && ["chat", "completion", "embedding", "rerank"].includes(requestType)) return "llm";
  if (spanKind === "agent") return "agent";
  if (spanKind === "tool") return "function";
  return "custom";
}

export function mapOpenLlmetry(_span: TOtelSpan, r: AttributeReader): TConventionFields {
  const requestType = str(r.take("llm.request.type"));
  const spanKind = str(r.take("traceloop.span.kind"));
  const type = typeOf(requestType, spanKind);
  const model = str(r.take("gen_ai.response.model", "llm.response.model")) ?? str(r.take("gen_ai.request.model", "llm.request.model"));
  r.take("gen_ai.request.model", "llm.request.model");
  const entityInput = parseJsonish(r.take("traceloop.entity.input"));
  const entityOutput = parseJsonish(r.take("traceloop.entity.output"));
  const tools = r.takeIndexed("llm.request.functions.");
  return {
    type,
    model,
    tokens: type === "llm" ? genAiTokens(r) : null,
    input: messagesOf(r, "gen_ai.prompt.", "llm.prompts.") ?? entityInput,
    output: messagesOf(r, "gen_ai.completion.", "llm.completions.") ?? entityOutput,
    tools: tools.length ? tools.map((t) => ({ ...t, parameters: parseJsonish(t.parameters) })) : undefined,
    sessionId: str(r.take("traceloop.association.properties.session_id")),
  };
}
