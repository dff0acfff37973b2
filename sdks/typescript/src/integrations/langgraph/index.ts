/**
 * LangGraph integration: `@reprise/sdk/langgraph`.
 *
 * ```ts
 * import { RepriseLangGraphHandler } from "@reprise/sdk/langgraph";
 * const handler = new RepriseLangGraphHandler(reprise);
 * await graph.invoke(input, { callbacks: [handler] });
 * ```
 * @packageDocumentation
 */
export { RepriseLangGraphHandler } from "./handler.js";
export type { LangGraphHandlerOptions } from "./handler.js";
