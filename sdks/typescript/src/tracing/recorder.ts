import { type RepriseLogger, ThrottledWarner } from "../logger.js";
import type { Pipeline } from "../pipeline.js";
import { contextStorage, currentFrame, type Frame } from "./context.js";
import { wrapAsyncGenerator, wrapSyncGenerator } from "./generators.js";
import { buildCompletionCarrier, buildSpanCarrier } from "./payloads.js";
import { SpanState } from "./span-state.js";
import { TraceState } from "./trace-state.js";
import type { IngestionType, SpanType } from "./types.js";

/** How to record one call. */
export interface RunSpec {
  name: string;
  type: SpanType;
  instrumentation: "span" | "trace";
  functionName?: string;
  /** Serve the span from the original's recorded output during a replay (`SpanOptions.mockOnReplay`). */
  mockOnReplay?: boolean;
  /** Set for `withTrace`: the trace to start when no trace is active. Absent for `withSpan`. */
  root?: { traceFunctionKey: string; ingestionType: IngestionType };
}

/** How a recorded call ended. */
export type Outcome = { kind: "value"; value: unknown } | { kind: "error"; error: unknown; partial?: unknown };

/**
 * Records wrapped calls as spans: opens a span, runs the function in its context (sync, async, generators), and
 * submits the span and, when the last span of a trace ends, the trace completion. SDK failures are logged and
 * never thrown into the application; the application's own errors pass through unchanged.
 */
export class Recorder {
  private readonly warner: ThrottledWarner;

  constructor(
    private readonly pipeline: Pipeline,
    logger: RepriseLogger,
  ) {
    this.warner = new ThrottledWarner(logger);
  }

  /** Runs `fn` as a recorded span (or untraced when `withSpan` has no active trace). */
  run<R>(spec: RunSpec, thisArg: unknown, args: unknown[], fn: (...args: unknown[]) => R): R {
    const opened = this.open(spec, args);
    if (opened === undefined) return fn.apply(thisArg, args);
    const { trace, span } = opened;
    const mock = this.recordedOutput(spec, trace, span);
    if (mock !== undefined) return this.serveMock(trace, span, mock.value, fn);
    const frame: Frame = { trace, span };
    let result: R;
    try {
      result = contextStorage.run(frame, () => fn.apply(thisArg, args));
    } catch (error) {
      this.finish(trace, span, { kind: "error", error });
      throw error;
    }
    return this.settle(trace, span, frame, result);
  }

  /** Counts the span's occurrence in a replayed trace, and returns its recorded output when it is to be mocked. */
  private recordedOutput(spec: RunSpec, trace: TraceState, span: SpanState): { value: unknown } | undefined {
    try {
      const recorded = span.isRoot ? undefined : trace.replay?.mocks?.next(span.name);
      return spec.mockOnReplay ? recorded : undefined;
    } catch (error) {
      this.internalFailure(error);
      return undefined;
    }
  }

  /** Ends the span at once with the recorded output, without calling the function. */
  private serveMock<R>(trace: TraceState, span: SpanState, value: unknown, fn: (...args: unknown[]) => R): R {
    span.mocked = true;
    this.finish(trace, span, { kind: "value", value });
    return (fn.constructor?.name === "AsyncFunction" ? Promise.resolve(value) : value) as R;
  }

  private open(spec: RunSpec, args: unknown[]): { trace: TraceState; span: SpanState } | undefined {
    try {
      const frame = currentFrame();
      let trace = frame?.trace;
      let parentId = frame?.span?.id;
      if (trace === undefined) {
        if (spec.root === undefined) return undefined;
        trace = this.startTrace(spec.root, frame);
        parentId = undefined;
      }
      const span = new SpanState(spec.name, spec.type, spec.instrumentation, parentId, spec.functionName);
      span.setInput(args);
      trace.openSpans += 1;
      return { trace, span };
    } catch (error) {
      this.internalFailure(error);
      return undefined;
    }
  }

  private startTrace(root: NonNullable<RunSpec["root"]>, frame: Frame | undefined): TraceState {
    const pending = frame?.pendingReplay;
    if (pending && !pending.consumed) {
      pending.consumed = true;
      const trace = new TraceState(root.traceFunctionKey, root.ingestionType, pending.attribution, pending.traceId);
      pending.onTrace(trace);
      return trace;
    }
    return new TraceState(root.traceFunctionKey, root.ingestionType, undefined);
  }

  private settle<R>(trace: TraceState, span: SpanState, frame: Frame, result: R): R {
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => {
          this.finish(trace, span, { kind: "value", value });
          return value;
        },
        (error: unknown) => {
          this.finish(trace, span, { kind: "error", error });
          throw error;
        },
      ) as R;
    }
    const tag = Object.prototype.toString.call(result);
    const done = (outcome: Outcome) => this.finish(trace, span, outcome);
    if (tag === "[object AsyncGenerator]") return wrapAsyncGenerator(result as AsyncGenerator, frame, done) as R;
    if (tag === "[object Generator]") return wrapSyncGenerator(result as Generator, frame, done) as R;
    this.finish(trace, span, { kind: "value", value: result });
    return result;
  }

  /**
   * Ends a span opened elsewhere (the wrappers above, or a framework integration that counted it in
   * `trace.openSpans`): records the outcome, submits the span, and completes the trace once nothing is running.
   * @internal
   */
  finish(trace: TraceState, span: SpanState, outcome: Outcome): void {
    try {
      span.endedAt = new Date();
      if (outcome.kind === "value") span.setOutput(outcome.value);
      else {
        span.setError(outcome.error);
        if (outcome.partial !== undefined) span.setOutput(outcome.partial);
      }
      if (!trace.dropped) this.submitSpan(trace, span);
    } catch (error) {
      this.internalFailure(error);
    } finally {
      trace.openSpans -= 1;
      if (span.isRoot) trace.rootEnded = true;
      if (trace.readyToComplete) this.complete(trace);
    }
  }

  private submitSpan(trace: TraceState, span: SpanState): void {
    this.pipeline.submitSpan(
      {
        carrier: buildSpanCarrier(trace, span),
        traceFunctionKey: trace.traceFunctionKey,
        spanName: span.name,
        isRoot: span.isRoot,
        hasError: span.error !== undefined,
        frameworkRecorded: span.frameworkRecorded,
      },
      (sent) => {
        if (sent) trace.sentSpans += 1;
      },
    );
  }

  /** Submits the completion once every earlier span was decided (docs/sdk-transport.md, "Completion"). */
  private complete(trace: TraceState): void {
    trace.completionStarted = true;
    trace.endedAt = new Date();
    try {
      this.pipeline.submitAfterSpans(
        () => buildCompletionCarrier(trace),
        (sent) =>
          trace.resolveCompletion({ traceId: trace.id, expectedSpanCount: trace.sentSpans, dropped: trace.dropped, sent }),
      );
    } catch (error) {
      this.internalFailure(error);
      trace.resolveCompletion({ traceId: trace.id, expectedSpanCount: trace.sentSpans, dropped: trace.dropped, sent: false });
    }
  }

  private internalFailure(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.warner.warn("internal", `Tracing failed internally and was skipped: ${message}`);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
