/**
 * AI SDK (Vercel) integration: `@reprise/sdk/vercel-ai`.
 *
 * ```ts
 * import { wrapLanguageModel, generateText } from "ai";
 * import { repriseMiddleware, traceTools } from "@reprise/sdk/vercel-ai";
 * const model = wrapLanguageModel({ model: openai("gpt-4o"), middleware: repriseMiddleware(reprise) });
 * await generateText({ model, tools: traceTools(reprise, tools), prompt });
 * ```
 * @packageDocumentation
 */
export { repriseMiddleware } from "./middleware.js";
export type { VercelAIMiddlewareOptions } from "./middleware.js";
export { traceTools } from "./tools.js";
export type { TraceToolsOptions } from "./tools.js";
