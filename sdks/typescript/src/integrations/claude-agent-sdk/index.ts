/**
 * Claude Agent SDK integration: `@reprise/sdk/claude-agent-sdk`.
 *
 * ```ts
 * import { query as claudeQuery } from "@anthropic-ai/claude-agent-sdk";
 * import { instrumentClaudeAgentQuery } from "@reprise/sdk/claude-agent-sdk";
 * const query = instrumentClaudeAgentQuery(reprise, claudeQuery);
 * for await (const message of query({ prompt: "Fix the failing test" })) console.log(message.type);
 * ```
 * @packageDocumentation
 */
export { instrumentClaudeAgentQuery } from "./instrument.js";
export type { ClaudeAgentOptions } from "./instrument.js";
