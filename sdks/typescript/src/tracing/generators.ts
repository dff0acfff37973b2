import { contextStorage, type Frame } from "./context.js";

type Done = (outcome: { kind: "value"; value: unknown } | { kind: "error"; error: unknown; partial?: unknown }) => void;

/**
 * Wraps an async generator so its body runs in the span's context and the span ends when iteration finishes, fails or
 * is abandoned through `return()`. The output is `{yielded: [...], return: value}` (docs/sdk-transport.md,
 * "Payloads").
 */
export function wrapAsyncGenerator<T, R, N>(
  generator: AsyncGenerator<T, R, N>,
  frame: Frame,
  done: Done,
): AsyncGenerator<T, R, N> {
  const yielded: T[] = [];
  let finished = false;
  const end = (outcome: Parameters<Done>[0]) => {
    if (finished) return;
    finished = true;
    done(outcome);
  };
  const step = async (method: "next" | "return" | "throw", arg: unknown): Promise<IteratorResult<T, R>> => {
    try {
      const result = await contextStorage.run(frame, () => (generator[method] as (a: unknown) => Promise<IteratorResult<T, R>>)(arg));
      if (result.done) end({ kind: "value", value: { yielded, return: result.value } });
      else yielded.push(result.value);
      return result;
    } catch (error) {
      end({ kind: "error", error, partial: { yielded } });
      throw error;
    }
  };
  const wrapper = {
    next: (arg?: N) => step("next", arg),
    return: (value?: R | PromiseLike<R>) => step("return", value),
    throw: (error?: unknown) => step("throw", error),
    [Symbol.asyncIterator]() {
      return wrapper;
    },
  };
  return wrapper as unknown as AsyncGenerator<T, R, N>;
}

/** The synchronous counterpart of `wrapAsyncGenerator`. */
export function wrapSyncGenerator<T, R, N>(generator: Generator<T, R, N>, frame: Frame, done: Done): Generator<T, R, N> {
  const yielded: T[] = [];
  let finished = false;
  const end = (outcome: Parameters<Done>[0]) => {
    if (finished) return;
    finished = true;
    done(outcome);
  };
  const step = (method: "next" | "return" | "throw", arg: unknown): IteratorResult<T, R> => {
    try {
      const result = contextStorage.run(frame, () => (generator[method] as (a: unknown) => IteratorResult<T, R>)(arg));
      if (result.done) end({ kind: "value", value: { yielded, return: result.value } });
      else yielded.push(result.value);
      return result;
    } catch (error) {
      end({ kind: "error", error, partial: { yielded } });
      throw error;
    }
  };
  const wrapper = {
    next: (arg?: N) => step("next", arg),
    return: (value?: R) => step("return", value),
    throw: (error?: unknown) => step("throw", error),
    [Symbol.iterator]() {
      return wrapper;
    },
  };
  return wrapper as unknown as Generator<T, R, N>;
}
