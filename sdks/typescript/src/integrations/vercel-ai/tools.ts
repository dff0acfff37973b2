import type { Reprise } from "../../client.js";
import { FrameworkRecorder } from "../core/framework-recorder.js";
import { toPlain } from "../core/plain.js";

/** Options of `traceTools`. */
export interface TraceToolsOptions {
  /** Trace function key of traces a tool call starts (outside `withTrace`); default the tool name. */
  traceFunctionKey?: string;
}

type Execute = (input: unknown, options: unknown) => unknown;

/**
 * Returns the same tools with each `execute` recorded as a `function` span (`instrumentation.name` `vercel-ai`),
 * under the active `withTrace`/`withSpan`. The model calls are recorded by `repriseMiddleware`; wrap the function
 * that calls `generateText` in `withTrace` to get one trace per agent run. What `execute` returns or throws is
 * passed through unchanged; tools without `execute` are left as they are.
 */
export function traceTools<T extends Record<string, object>>(client: Reprise, tools: T, options: TraceToolsOptions = {}): T {
  const recorder = new FrameworkRecorder(client, "vercel-ai");
  const traced: Record<string, object> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = (tool as { execute?: Execute }).execute;
    if (typeof execute !== "function") {
      traced[name] = tool;
      continue;
    }
    const wrapped: Execute = function (this: unknown, input, callOptions) {
      const span = recorder.start({ name, type: "function", input, traceFunctionKey: options.traceFunctionKey ?? name });
      if (span === undefined) return execute.call(this, input, callOptions);
      const toolCallId = (callOptions as { toolCallId?: unknown } | undefined)?.toolCallId;
      if (typeof toolCallId === "string") span.addContext({ toolCallId });
      let result: unknown;
      try {
        result = span.run(() => execute.call(this, input, callOptions));
      } catch (error) {
        span.fail(error);
        throw error;
      }
      if (result !== null && typeof (result as PromiseLike<unknown>)?.then === "function") {
        (result as PromiseLike<unknown>).then(
          (value) => recorder.guard(() => span.end(toPlain(value))),
          (error: unknown) => recorder.guard(() => span.fail(error)),
        );
      } else if (result !== null && typeof result === "object" && Symbol.asyncIterator in result) {
        span.addContext({ streamedOutput: true }); // an async iterable of preliminary results: not consumed here
        span.end();
      } else {
        span.end(toPlain(result));
      }
      return result;
    };
    traced[name] = { ...tool, execute: wrapped };
  }
  return traced as T;
}
