// One OpenTelemetry span → what Reprise stores for it: type, model, tokens, input and output (chat
// messages as messages), error, and every attribute no convention used as metadata. Written once for
// the four conventions of docs/otel.md; nothing is dropped for being unexpected.
import type { TSpanType } from "../../write/span-fields.ts";
import type { TAttributes, TOtelSpan } from "../otel-span.ts";
import { genAiTokens, genAiType, mapGenAi } from "./genai.ts";
import { fromGenAiMessages } from "./messages.ts";
import { mapOpenInference } from "./openinference.ts";
import { mapOpenLlmetry } from "./openllmetry.ts";
import type { TConvention, TConventionFields, TTokens } from "./types.ts";
import { mapVercelAi } from "./vercel-ai.ts";
import { AttributeReader, parseJsonish, str } from "./values.ts";

export const TRACE_FUNCTION_ATTRIBUTE = "reprise.trace_function";

export interface TMappedSpan {
  convention: TConvention;
  type: TSpanType;
  model: string | null;
  tokens: TTokens | null;
  input: unknown;
  output: unknown;
  systemInstructions: unknown;
  tools: unknown;
  sessionId: string | null;
  traceFunction: string | null;
  error: string | null;
  /** Attributes no convention used (the span's metadata). */
  metadata: TAttributes;
}

const OPENLLMETRY_KEY = /^(traceloop\.|llm\.request\.type$|gen_ai\.(prompt|completion)\.\d+\.|llm\.(prompts|completions)\.\d+\.)/;

export function detectConvention(span: TOtelSpan): TConvention {
  const keys = Object.keys(span.attributes);
  if (keys.includes("openinference.span.kind")) return "openinference";
  if (keys.includes("ai.operationId") || (span.scope.name === "ai" && keys.some((k) => k.startsWith("ai.")))) return "vercel-ai";
  if (keys.some((k) => OPENLLMETRY_KEY.test(k))) return "openllmetry";
  if (keys.some((k) => k.startsWith("gen_ai.")) || span.events.some((e) => e.name.startsWith("gen_ai."))) return "otel-genai";
  return "otel";
}

const MAPPERS: Record<TConvention, (span: TOtelSpan, r: AttributeReader) => TConventionFields> = {
  "otel-genai": mapGenAi,
  openinference: mapOpenInference,
  openllmetry: mapOpenLlmetry,
  "vercel-ai": mapVercelAi,
  otel: () => ({ type: "custom", model: null, tokens: null }),
};

/** The span's error: an ERROR status, with the status message or the first exception event's message. */
export function errorOf(span: TOtelSpan): string | null {
  if (span.status.code !== 2) return null;
  if (span.status.message) return span.status.message;
  const exception = span.events.find((e) => e.name === "exception");
  if (exception) {
    const type = str(exception.attributes["exception.type"]);
    const message = str(exception.attributes["exception.message"]);
    if (type || message) return [type, message].filter(Boolean).join(": ");
  }
  return "error";
}

/** Each count from the GenAI attributes when they have it, else the convention's. */
function mergeTokens(genAi: TTokens | null, own: TTokens | null): TTokens | null {
  if (!genAi) return own;
  if (!own) return genAi;
  return { input: genAi.input ?? own.input, output: genAi.output ?? own.output, cached: genAi.cached ?? own.cached, total: genAi.total ?? own.total, reasoning: genAi.reasoning ?? own.reasoning };
}

/**
 * The current GenAI attributes win over whatever convention a span was routed to: libraries add them
 * to their own (OpenLLMetry's chat spans inside a Traceloop workflow carry `traceloop.*` beside
 * `gen_ai.operation.name`, `gen_ai.usage.*` and `gen_ai.input.messages`), and a convention's older
 * attributes must not hide what the span says in the standard names (docs/otel.md).
 */
function withGenAiAttributes(span: TOtelSpan, r: AttributeReader, own: TConventionFields): TConventionFields {
  const operation = str(r.take("gen_ai.operation.name"));
  // A response model is what answered; a convention's own model may be a response model too.
  const model = str(r.take("gen_ai.response.model")) ?? own.model ?? str(r.take("gen_ai.request.model"));
  if (model) r.used.add("gen_ai.request.model");
  const named = operation ? genAiType(operation, model !== null, span.name) : "custom";
  const type = named === "custom" ? own.type : named;
  const tokens = type === "llm" ? mergeTokens(genAiTokens(r), own.tokens) : null;
  let input = fromGenAiMessages(r.take("gen_ai.input.messages")) ?? own.input;
  let output = fromGenAiMessages(r.take("gen_ai.output.messages")) ?? own.output;
  if (type === "function") {
    input = parseJsonish(r.take("gen_ai.tool.call.arguments")) ?? input;
    output = parseJsonish(r.take("gen_ai.tool.call.result")) ?? output;
  }
  return {
    type,
    model,
    tokens,
    input,
    output,
    systemInstructions: parseJsonish(r.take("gen_ai.system_instructions")) ?? own.systemInstructions,
    tools: parseJsonish(r.take("gen_ai.tool.definitions")) ?? own.tools,
    sessionId: str(r.take("gen_ai.conversation.id")) ?? own.sessionId,
  };
}

export function mapSpan(span: TOtelSpan): TMappedSpan {
  const convention = detectConvention(span);
  const r = new AttributeReader(span.attributes);
  const traceFunction = str(r.take(TRACE_FUNCTION_ATTRIBUTE));
  const own = MAPPERS[convention](span, r);
  const fields = convention === "otel-genai" || convention === "otel" ? own : withGenAiAttributes(span, r, own);
  return {
    convention,
    type: fields.type,
    model: fields.model,
    tokens: fields.tokens,
    input: fields.input,
    output: fields.output,
    systemInstructions: fields.systemInstructions,
    tools: fields.tools,
    sessionId: fields.sessionId ?? null,
    traceFunction,
    error: errorOf(span),
    metadata: r.rest(),
  };
}
