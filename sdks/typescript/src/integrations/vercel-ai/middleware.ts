import type { Reprise } from "../../client.js";
import { FrameworkRecorder, type FrameworkSpan } from "../core/framework-recorder.js";
import { toPlain } from "../core/plain.js";
import { record, str } from "../core/values.js";
import { callInput, type ModelInfo, StreamAccumulator, usageContext } from "./call-mapping.js";

/** Options of `repriseMiddleware`. */
export interface VercelAIMiddlewareOptions {
  /** Span name of each model call; default the model id. */
  spanName?: string;
  /** Trace function key of traces a call starts (outside `withTrace`); default the span name. */
  traceFunctionKey?: string;
}

type CallOptions = { params: unknown; model: ModelInfo };
type GenerateOptions = CallOptions & { doGenerate: () => PromiseLike<unknown> };
type StreamOptions = CallOptions & { doStream: () => PromiseLike<unknown> };

/**
 * A language-model middleware for the AI SDK (`wrapLanguageModel({ model, middleware })`): each model call of
 * `generateText`, `streamText`, `generateObject` or `streamObject` is recorded as an `llm` span with model, token
 * usage and `instrumentation.name` `vercel-ai`. A streamed call's span ends when its stream ends (or fails, or is
 * cancelled). Results, streams and errors are passed through unchanged.
 */
export function repriseMiddleware(client: Reprise, options: VercelAIMiddlewareOptions = {}) {
  const recorder = new FrameworkRecorder(client, "vercel-ai");
  const open = ({ params, model }: CallOptions) => {
    const name = options.spanName ?? str(model.modelId) ?? "model";
    return recorder.start({ name, type: "llm", input: callInput(params), traceFunctionKey: options.traceFunctionKey ?? name });
  };
  return {
    specificationVersion: "v3" as const,
    async wrapGenerate(call: GenerateOptions): Promise<any> {
      const span = open(call);
      if (span === undefined) return call.doGenerate();
      let result: unknown;
      try {
        result = await span.run(() => call.doGenerate());
      } catch (error) {
        span.fail(error);
        throw error;
      }
      recorder.guard(() => {
        const r = record(result);
        for (const context of usageContext(call.model, r?.usage, r?.finishReason, record(r?.response)?.modelId)) span.addContext(context);
        span.end(toPlain({ content: r?.content, finishReason: r?.finishReason }));
      });
      return result;
    },
    async wrapStream(call: StreamOptions): Promise<any> {
      const span = open(call);
      if (span === undefined) return call.doStream();
      let result: unknown;
      try {
        result = await span.run(() => call.doStream());
      } catch (error) {
        span.fail(error);
        throw error;
      }
      const stream = record(result)?.stream;
      if (!(stream instanceof ReadableStream)) {
        span.end();
        return result;
      }
      return { ...(result as object), stream: observeStream(stream, span, call.model, recorder) };
    },
  };
}

/** The same parts, in the same order, from a stream that records the call when it ends. */
function observeStream(source: ReadableStream<unknown>, span: FrameworkSpan, model: ModelInfo, recorder: FrameworkRecorder): ReadableStream<unknown> {
  const reader = source.getReader();
  const seen = new StreamAccumulator();
  const finish = (outcome: { error?: unknown; cancelled?: boolean } = {}) =>
    recorder.guard(() => {
      for (const context of usageContext(model, seen.usage, seen.finishReason, seen.responseModel)) span.addContext(context);
      if (outcome.cancelled) span.addContext({ streamCancelled: true });
      const error = outcome.error ?? seen.error;
      if (error !== undefined) span.fail(error, seen.output());
      else span.end(seen.output());
    });
  return new ReadableStream<unknown>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        finish({ error });
        controller.error(error);
        return;
      }
      if (next.done) {
        finish();
        controller.close();
        return;
      }
      recorder.guard(() => seen.observe(next.value));
      controller.enqueue(next.value);
    },
    cancel(reason) {
      finish({ cancelled: true });
      return reader.cancel(reason);
    },
  });
}
