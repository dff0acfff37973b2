import type { Reprise } from "../../client.js";
import { contextStorage, currentFrame } from "../../tracing/context.js";
import { FrameworkRecorder } from "../core/framework-recorder.js";
import { toPlain } from "../core/plain.js";
import { record, str } from "../core/values.js";
import { QueryObserver } from "./query-observer.js";

/** Options of `instrumentClaudeAgentQuery`. */
export interface ClaudeAgentOptions {
  /** Name of each query's span; default `claude-agent-query`. */
  spanName?: string;
  /** Trace function key of traces a query starts (outside `withTrace`); default `claude-agent-sdk`. */
  traceFunctionKey?: string;
}

// `any`: the parameters of `query` differ between SDK versions; only the call is forwarded.
type QueryFunction = (params: any) => AsyncGenerator<unknown, unknown, unknown>;

const OBSERVED = new Set<PropertyKey>(["next", "return", "throw", Symbol.asyncIterator]);

/**
 * Wraps the Claude Agent SDK's `query` so each call records the query (`agent`), each assistant turn (`llm`,
 * with model and token usage) and each tool use with its result (`function`), with `instrumentation.name`
 * `claude-agent-sdk`. The returned `Query` is the SDK's own object seen through a proxy: the same messages, the
 * same control methods (`interrupt`, `setPermissionMode`, …), the same errors.
 */
export function instrumentClaudeAgentQuery<Q extends QueryFunction>(client: Reprise, query: Q, options: ClaudeAgentOptions = {}): Q {
  const recorder = new FrameworkRecorder(client, "claude-agent-sdk");
  const instrumented = function (this: unknown, params: Parameters<Q>[0]) {
    const generator = query.call(this, params);
    if (!recorder.enabled) return generator;
    // The query's span opens when the first message is asked for (a query never iterated records nothing and
    // holds no trace open), placed where the query was created.
    const frame = currentFrame();
    const prompt = typeof params?.prompt === "string" ? params.prompt : "<streaming input>";
    const model = str(record(params?.options)?.model);
    const open = () =>
      contextStorage.run({ ...frame }, () => {
        const root = recorder.start({
          name: options.spanName ?? "claude-agent-query",
          type: "agent",
          input: toPlain({ prompt, ...(model ? { model } : {}) }),
          traceFunctionKey: options.traceFunctionKey ?? "claude-agent-sdk",
        });
        return root === undefined ? undefined : new QueryObserver(recorder, root, prompt);
      });
    return observe(generator, open);
  };
  return instrumented as Q;
}

function observe<G extends AsyncGenerator<unknown, unknown, unknown>>(generator: G, open: () => QueryObserver | undefined): G {
  let observer: QueryObserver | undefined;
  let opened = false;
  const settle = async (step: () => Promise<IteratorResult<unknown, unknown>>, stoppedEarly: boolean) => {
    if (!opened) {
      opened = true;
      observer = open();
    }
    let result: IteratorResult<unknown, unknown>;
    try {
      result = await step();
    } catch (error) {
      observer?.finish({ error });
      throw error;
    }
    if (result.done) observer?.finish({ stoppedEarly });
    else observer?.observe(result.value);
    return result;
  };
  return new Proxy(generator, {
    get(target, property, receiver) {
      if (!OBSERVED.has(property)) {
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      if (property === Symbol.asyncIterator) return () => receiver;
      if (property === "next") return (...args: [] | [unknown]) => settle(() => target.next(...args), false);
      if (property === "return") return (value: unknown) => settle(() => target.return(value), true);
      return (error: unknown) => settle(() => target.throw(error), false);
    },
  });
}
