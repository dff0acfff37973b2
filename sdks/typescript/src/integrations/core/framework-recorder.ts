import { ThrottledWarner } from "../../logger.js";
import { contextStorage, currentFrame } from "../../tracing/context.js";
import type { Recorder } from "../../tracing/recorder.js";
import { SpanState } from "../../tracing/span-state.js";
import { TraceState } from "../../tracing/trace-state.js";
import type { FrameworkInstrumentation, SpanType } from "../../tracing/types.js";
import { integrationHostOf } from "./host.js";

/** How to open one framework-recorded span. */
export interface FrameworkSpanStart {
  name: string;
  type: SpanType;
  /** A span of the same integration to nest under; otherwise the active `withTrace`/`withSpan`, else a new trace. */
  parent?: FrameworkSpan;
  /** What the framework passed to this step (recorded as is, not as an argument array). */
  input?: unknown;
  /** When the framework says the step started; default now. */
  startedAt?: Date;
  /** Trace function key of the trace started when nothing is active. */
  traceFunctionKey: string;
  /** Title of that trace; default the span's name (the workflow's, graph's or query's name), not the trace function key. */
  traceName?: string;
}

/**
 * One span recorded by a framework integration. It counts as running in its trace until `end`, so the trace's
 * completion waits for it (docs/sdk-transport.md, "Completion"). `end` is idempotent.
 */
export class FrameworkSpan {
  private ended = false;

  /** @internal */
  constructor(
    private readonly recorder: FrameworkRecorder,
    readonly trace: TraceState,
    readonly state: SpanState,
  ) {}

  /** The span id. */
  get id(): string {
    return this.state.id;
  }

  /** True once ended. */
  get isEnded(): boolean {
    return this.ended;
  }

  /**
   * Runs `fn` with this span as the active span, so `withSpan` calls (and framework spans) inside it nest under it.
   */
  run<R>(fn: () => R): R {
    return contextStorage.run({ ...currentFrame(), trace: this.trace, span: this.state }, fn);
  }

  /** Appends a context object (`{model, inputTokens, outputTokens}` feeds the server's token and model reads). */
  addContext(context: Record<string, unknown>): this {
    this.state.contexts.push(context);
    return this;
  }

  /** Renames the span before it ends (when the framework only names the step once it ran). */
  setName(name: string): this {
    if (!this.ended && name !== "") this.state.name = name;
    return this;
  }

  /** Replaces the recorded input. */
  setInput(input: unknown): this {
    this.recorder.guard(() => this.state.setInput(input));
    return this;
  }

  /** Ends the span with the step's output. */
  end(output?: unknown): void {
    this.close({ kind: "value", value: output });
  }

  /** Ends the span with the error the step raised (and what it produced before, if anything). */
  fail(error: unknown, partial?: unknown): void {
    this.close({ kind: "error", error, partial });
  }

  private close(outcome: Parameters<Recorder["finish"]>[2]): void {
    if (this.ended) return;
    this.ended = true;
    this.recorder.finishSpan(this.trace, this.state, outcome);
  }
}

/**
 * Records the spans a framework integration observes, through the client's own recorder and transport
 * (docs/sdk-transport.md, rule 12). Every span carries the integration's `instrumentation.name`. Never throws into
 * the framework: an internal failure is logged and the span is skipped.
 */
export class FrameworkRecorder {
  private readonly recorder: Recorder;
  /** False when the client has no API key: nothing is recorded. */
  readonly enabled: boolean;
  private readonly warner: ThrottledWarner;
  /** The client's `flushTraces`. */
  readonly flush: (timeoutMs: number) => Promise<boolean>;

  constructor(
    client: object,
    readonly instrumentation: FrameworkInstrumentation,
  ) {
    const host = integrationHostOf(client);
    this.recorder = host.recorder;
    this.enabled = host.enabled;
    this.warner = new ThrottledWarner(host.logger);
    this.flush = host.flush;
  }

  /** Opens a span, or returns undefined when tracing is disabled or failed. */
  start(options: FrameworkSpanStart): FrameworkSpan | undefined {
    if (!this.enabled) return undefined;
    return this.guard(() => {
      const { trace, parentId } = this.placement(options);
      const state = new SpanState(options.name, options.type, this.instrumentation, parentId, undefined);
      if (options.startedAt !== undefined && !Number.isNaN(options.startedAt.getTime())) state.startedAt = options.startedAt;
      if (options.input !== undefined) state.setInput(options.input);
      trace.openSpans += 1;
      return new FrameworkSpan(this, trace, state);
    });
  }

  /** Runs `fn`, logging (throttled) and swallowing anything it throws. */
  guard<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.warner.warn(`integration:${this.instrumentation}`, `The ${this.instrumentation} integration failed internally and skipped a span: ${message}`);
      return undefined;
    }
  }

  /** @internal */
  finishSpan(trace: TraceState, state: SpanState, outcome: Parameters<Recorder["finish"]>[2]): void {
    this.recorder.finish(trace, state, outcome);
  }

  private placement(options: FrameworkSpanStart): { trace: TraceState; parentId: string | undefined } {
    const parent = options.parent;
    if (parent !== undefined && !parent.trace.completionStarted) return { trace: parent.trace, parentId: parent.id };
    const frame = currentFrame();
    if (frame?.trace !== undefined && !frame.trace.completionStarted) return { trace: frame.trace, parentId: frame.span?.id };
    const trace = new TraceState(options.traceFunctionKey, "captured", undefined);
    trace.name = options.traceName ?? options.name;
    return { trace, parentId: undefined };
  }
}
