import { type RepriseLogger, stderrLogger, warnOnce } from "../logger.js";
import { currentFrame } from "./context.js";
import type { SpanState } from "./span-state.js";
import type { TraceState } from "./trace-state.js";

/**
 * The trace active in the current context. Every method is a no-op outside a trace, so instrumented code runs the
 * same with tracing off. Changes made after the trace completed are ignored with a warning; use
 * `Reprise.detachedTrace(id)` for those.
 */
export class CurrentTrace {
  /** @internal */
  constructor(
    private readonly trace: TraceState | undefined,
    private readonly logger: RepriseLogger = stderrLogger,
  ) {}

  /** The canonical trace id (a UUID), or undefined outside a trace. */
  get id(): string | undefined {
    return this.trace?.id;
  }

  /** True inside a recorded trace. */
  get isActive(): boolean {
    return this.trace !== undefined;
  }

  /** Sets the trace title shown in the console and matched by trace search. */
  setName(name: string): this {
    return this.update((t) => (t.name = String(name)));
  }

  /** Shallow-merges keys into the trace metadata; matching keys are replaced. */
  mergeMetadata(metadata: Record<string, unknown>): this {
    return this.update((t) => Object.assign(t.metadata, metadata));
  }

  /** Appends one context object to the trace's contexts. */
  addContext(context: Record<string, unknown>): this {
    return this.update((t) => t.contexts.push(context));
  }

  /** Groups the trace under a user session. */
  setSessionId(sessionId: string): this {
    return this.update((t) => (t.sessionId = String(sessionId)));
  }

  /**
   * Drops the trace: spans that finish from now on are not sent, and the completion tells the server to scrub
   * what it already received.
   */
  drop(): this {
    return this.update((t) => (t.dropped = true));
  }

  private update(change: (trace: TraceState) => unknown): this {
    const trace = this.trace;
    if (trace === undefined) return this;
    if (trace.completionStarted) {
      warnOnce(this.logger, "trace-after-completion", "A trace was changed after it completed; use detachedTrace(id) for late updates.");
      return this;
    }
    change(trace);
    return this;
  }
}

/** The span active in the current context; methods are no-ops outside a span. */
export class CurrentSpan {
  /** @internal */
  constructor(private readonly span: SpanState | undefined) {}

  /** The span id, or undefined outside a span. */
  get id(): string | undefined {
    return this.span?.id;
  }

  /**
   * Appends one context object to the span. Token usage and model go here, e.g.
   * `{ model, inputTokens, outputTokens }`; the server derives tokens and model from span contexts.
   */
  addContext(context: Record<string, unknown>): this {
    this.span?.contexts.push(context);
    return this;
  }

  /**
   * Records the prompt the span sent: a string as it is, anything else (a messages array, a template object)
   * as its JSON text, so the console shows what was sent rather than "[object Object]".
   */
  setPrompt(prompt: string | object): this {
    if (this.span) this.span.prompt = typeof prompt === "string" ? prompt : (JSON.stringify(prompt) ?? String(prompt));
    return this;
  }
}

/** The trace active in the current context (a no-op handle outside a trace). */
export function getCurrentTrace(logger?: RepriseLogger): CurrentTrace {
  return new CurrentTrace(currentFrame()?.trace, logger);
}

/** The span active in the current context (a no-op handle outside a span). */
export function getCurrentSpan(): CurrentSpan {
  return new CurrentSpan(currentFrame()?.span);
}
