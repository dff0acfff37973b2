import { toPlain } from "../core/plain.js";
import { contextList, num, record, str } from "../core/values.js";

/** The parts of an AI SDK language model the middleware reads. */
export interface ModelInfo {
  provider?: string;
  modelId?: string;
}

/** Model, provider and token usage of one model call, as a span context (AI SDK 6 usage, or the flat AI SDK 5 one). */
export function usageContext(model: ModelInfo, usage: unknown, finishReason: unknown, responseModel?: unknown): Array<Record<string, unknown>> {
  const u = record(usage);
  const input = record(u?.inputTokens);
  const output = record(u?.outputTokens);
  const inputTokens = input ? num(input.total) : num(u?.inputTokens);
  const outputTokens = output ? num(output.total) : num(u?.outputTokens);
  return contextList({
    model: str(responseModel) ?? str(model.modelId),
    provider: str(model.provider),
    inputTokens,
    outputTokens,
    cacheReadTokens: input ? num(input.cacheRead) : num(u?.cachedInputTokens),
    cacheCreationTokens: input ? num(input.cacheWrite) : undefined,
    reasoningTokens: output ? num(output.reasoning) : num(u?.reasoningTokens),
    totalTokens: num(u?.totalTokens) ?? (inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined),
    finishReason: finishReason !== undefined ? toPlain(finishReason) : undefined,
  });
}

/** What the call asked the model: the prompt, and the names of the tools it offered. */
export function callInput(params: unknown): unknown {
  const p = record(params);
  const tools = Array.isArray(p?.tools) ? p.tools.map((t) => str(record(t)?.name)).filter(Boolean) : [];
  const format = record(p?.responseFormat);
  return toPlain({
    prompt: p?.prompt,
    ...(tools.length > 0 ? { tools } : {}),
    ...(format && format.type !== "text" ? { responseFormat: format } : {}),
  });
}

/** Accumulates what a streamed call produced: text, reasoning, tool calls, finish reason and usage. */
export class StreamAccumulator {
  private text = "";
  private reasoning = "";
  private readonly toolCalls: unknown[] = [];
  finishReason: unknown;
  usage: unknown;
  responseModel: string | undefined;
  error: unknown;

  /** Reads one stream part (unknown parts are ignored). */
  observe(part: unknown): void {
    const p = record(part);
    switch (p?.type) {
      case "text-delta":
        this.text += str(p.delta) ?? str(p.textDelta) ?? "";
        break;
      case "reasoning-delta":
        this.reasoning += str(p.delta) ?? "";
        break;
      case "tool-call":
        this.toolCalls.push(toPlain(p));
        break;
      case "response-metadata":
        this.responseModel = str(p.modelId) ?? this.responseModel;
        break;
      case "finish":
        this.finishReason = p.finishReason;
        this.usage = p.usage;
        break;
      case "error":
        this.error = p.error;
        break;
    }
  }

  /** The output recorded on the span, shaped like a generate result's `content`. */
  output(): unknown {
    const content: unknown[] = [];
    if (this.reasoning) content.push({ type: "reasoning", text: this.reasoning });
    if (this.text) content.push({ type: "text", text: this.text });
    content.push(...this.toolCalls);
    return { content, finishReason: toPlain(this.finishReason) };
  }
}
