/**
 * OpenAI Agents SDK integration: `@reprise/sdk/openai-agents`.
 *
 * ```ts
 * import { addTraceProcessor } from "@openai/agents";
 * import { createOpenAIAgentsProcessor } from "@reprise/sdk/openai-agents";
 * addTraceProcessor(createOpenAIAgentsProcessor(reprise));
 * ```
 * @packageDocumentation
 */
import type { Reprise } from "../../client.js";
import { type OpenAIAgentsProcessorOptions, RepriseAgentsProcessor } from "./processor.js";

export { RepriseAgentsProcessor } from "./processor.js";
export type { AgentsSpan, AgentsTrace, OpenAIAgentsProcessorOptions } from "./processor.js";

/** A tracing processor that records OpenAI Agents runs through `client`'s transport. */
export function createOpenAIAgentsProcessor(client: Reprise, options: OpenAIAgentsProcessorOptions = {}): RepriseAgentsProcessor {
  return new RepriseAgentsProcessor(client, options);
}
