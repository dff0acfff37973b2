import { type RepriseOptions, type ResolvedConfig, resolveConfig } from "./config.js";
import { methodDecorator } from "./decorators.js";
import { FunctionNotFoundError, RepriseConfigError } from "./errors.js";
import { ApiClient } from "./http/api-client.js";
import { bindIntegrationHost } from "./integrations/core/host.js";
import { type RepriseLogger, stderrLogger, warnOnce } from "./logger.js";
import { Pipeline } from "./pipeline.js";
import { ReplayApi } from "./replay/replay-api.js";
import { runReplay } from "./replay/runner.js";
import type { ReplayOptions, ReplayResult } from "./replay/types.js";
import { flushAllLive } from "./transport/registry.js";
import { contextStorage, type PendingReplay } from "./tracing/context.js";
import { DetachedTrace } from "./tracing/detached-trace.js";
import { buildFunctionTraceCarrier, type FunctionExecution } from "./tracing/function-trace.js";
import { CurrentSpan, CurrentTrace, getCurrentSpan, getCurrentTrace } from "./tracing/handles.js";
import { Recorder, type RunSpec } from "./tracing/recorder.js";
import { type SpanOptions, type SpanType, type TraceOptions, toSpanType } from "./tracing/types.js";

const TRACED = Symbol.for("reprise.traced");

/** A function wrapped by `withTrace`; replay recognises it and does not wrap it twice. */
interface TracedMarker {
  traceFunctionKey: string;
}

/** A case written as a `seeded` trace by `seedTrace` (docs/api/ingestion.md, "Trace completion"). */
export interface SeedCase {
  traceFunctionKey: string;
  /** The argument array the function would receive (a non-array is one argument). */
  input: unknown;
  /** The expected or recorded output. */
  output?: unknown;
  /** Trace title. */
  name?: string;
  /** Root span name; default the trace function key. */
  spanName?: string;
  type?: SpanType;
  metadata?: Record<string, unknown>;
  contexts?: Array<Record<string, unknown>>;
  sessionId?: string;
}

/** What `lookupFunction` returns (docs/api/functions.md, "POST /api/sdk/functions/lookup"). */
export interface FunctionInfo {
  id: string;
  name?: string;
  versionId?: string;
  versionNumber?: number;
  prompt?: string;
  providers?: unknown[];
  [key: string]: unknown;
}

/**
 * The Reprise client: records traces of an application, and replays them.
 *
 * ```ts
 * const reprise = new Reprise({ apiKey: process.env.REPRISE_API_KEY });
 * const answer = reprise.withTrace("answer-question", async (question: string) => callModel(question));
 * ```
 */
export class Reprise {
  /** The resolved configuration. */
  readonly config: ResolvedConfig;
  /** False when no API key was found: wrappers then run the application code untouched. */
  readonly enabled: boolean;
  private readonly logger: RepriseLogger;
  private readonly api: ApiClient;
  private readonly pipeline: Pipeline;
  private readonly recorder: Recorder;

  /** Creates a client. Nothing is started until the first span is recorded. */
  constructor(options: RepriseOptions = {}) {
    this.logger = options.logger ?? stderrLogger;
    const { config, warnings } = resolveConfig(options);
    for (const warning of warnings) warnOnce(this.logger, warning.key, warning.message);
    this.config = config;
    this.enabled = config.apiKey !== "";
    if (!this.enabled) {
      warnOnce(this.logger, "no-api-key", "No API key (apiKey option or REPRISE_API_KEY): tracing is disabled.");
    }
    this.api = new ApiClient(config);
    this.pipeline = new Pipeline(config, this.logger, this.api);
    this.recorder = new Recorder(this.pipeline, this.logger);
    bindIntegrationHost(this, {
      recorder: this.recorder,
      logger: this.logger,
      enabled: this.enabled,
      flush: (timeoutMs) => this.flushTraces(timeoutMs),
    });
  }

  /**
   * Wraps `fn` so each call records a trace of `traceFunctionKey`, with the argument array as input and the
   * return value as output. Sync, async and (async) generator functions are supported. Called inside another
   * trace, it records a child span of that trace instead.
   */
  withTrace<F extends (...args: any[]) => any>(traceFunctionKey: string, fn: F, options: TraceOptions = {}): F {
    const spec: RunSpec = {
      name: options.spanName ?? traceFunctionKey,
      type: options.type === undefined ? "function" : toSpanType(options.type),
      instrumentation: "trace",
      functionName: fn.name || undefined,
      root: { traceFunctionKey, ingestionType: "captured" },
    };
    const wrapped = this.wrap(spec, fn);
    Object.defineProperty(wrapped, TRACED, { value: { traceFunctionKey } satisfies TracedMarker });
    return wrapped;
  }

  /**
   * Wraps `fn` so each call inside a trace records a child span named `name`. Outside any trace the function runs
   * unrecorded.
   */
  withSpan<F extends (...args: any[]) => any>(name: string, options: SpanOptions, fn: F): F;
  /** Same as `withSpan(name, {}, fn)`. */
  withSpan<F extends (...args: any[]) => any>(name: string, fn: F): F;
  withSpan<F extends (...args: any[]) => any>(name: string, optionsOrFn: SpanOptions | F, maybeFn?: F): F {
    const fn = (typeof optionsOrFn === "function" ? optionsOrFn : maybeFn) as F;
    const options = (typeof optionsOrFn === "function" ? {} : optionsOrFn) ?? {};
    return this.wrap(
      { name, type: toSpanType(options.type), instrumentation: "span", functionName: fn.name || undefined, mockOnReplay: options.mockOnReplay === true },
      fn,
    );
  }

  /** Method decorator form of `withTrace`: `@reprise.trace("answer-question")`. */
  trace(traceFunctionKey: string, options: TraceOptions = {}) {
    return methodDecorator((method) => this.withTrace(traceFunctionKey, method, options));
  }

  /** Method decorator form of `withSpan`: `@reprise.span("callModel", { type: "llm" })`; the name defaults to the method's. */
  span(name?: string, options: SpanOptions = {}) {
    return methodDecorator((method, methodName) => this.withSpan(name ?? methodName, options, method));
  }

  /** The trace active in the current context (a no-op handle outside a trace). */
  getCurrentTrace(): CurrentTrace {
    return getCurrentTrace(this.logger);
  }

  /** The span active in the current context (a no-op handle outside a span). */
  getCurrentSpan(): CurrentSpan {
    return getCurrentSpan();
  }

  /** A handle that updates a trace by id through `PATCH /api/sdk/traces/{id}` (blocking, raises on rejection). */
  detachedTrace(traceId: string): DetachedTrace {
    return new DetachedTrace(traceId, this.api);
  }

  /** Writes a `seeded` trace from a case, flushes it, and returns its id. */
  async seedTrace(seed: SeedCase): Promise<{ traceId: string; delivered: boolean }> {
    this.requireKey();
    let traceId = "";
    const spec: RunSpec = {
      name: seed.spanName ?? seed.traceFunctionKey,
      type: seed.type === undefined ? "function" : toSpanType(seed.type),
      instrumentation: "trace",
      root: { traceFunctionKey: seed.traceFunctionKey, ingestionType: "seeded" },
    };
    const args = Array.isArray(seed.input) ? seed.input : [seed.input];
    contextStorage.run({}, () =>
      this.recorder.run(spec, undefined, args, () => {
        const trace = this.getCurrentTrace();
        traceId = trace.id ?? "";
        if (seed.name !== undefined) trace.setName(seed.name);
        if (seed.metadata) trace.mergeMetadata(seed.metadata);
        for (const context of seed.contexts ?? []) trace.addContext(context);
        if (seed.sessionId !== undefined) trace.setSessionId(seed.sessionId);
        return seed.output;
      }),
    );
    return { traceId, delivered: await this.flushTraces() };
  }

  /** Looks a function up by name; throws `FunctionNotFoundError` when the server answers `{id: null}`. */
  async lookupFunction(name: string): Promise<FunctionInfo> {
    this.requireKey();
    const body = await this.api.call<Partial<FunctionInfo> & { id?: string | null }>("POST", "/functions/lookup", { name });
    if (body.id === null || body.id === undefined) throw new FunctionNotFoundError(name, `${this.config.serviceUrl}/functions`);
    return body as FunctionInfo;
  }

  /**
   * Records one execution of a function found with `lookupFunction` as a function-execution trace (an
   * `internal_trace` carrier, delivered in the background like spans). Returns false when nothing was queued
   * (tracing disabled, or the client is closed); never throws.
   */
  recordFunctionTrace(fn: FunctionInfo | string, execution: FunctionExecution): boolean {
    if (!this.enabled) return false;
    try {
      const id = typeof fn === "string" ? fn : fn.id;
      const name = typeof fn === "string" ? undefined : fn.name;
      return this.pipeline.submitDirect(buildFunctionTraceCarrier(id, name, execution));
    } catch (error) {
      warnOnce(this.logger, "function-trace", `A function trace could not be recorded: ${(error as Error).message}`);
      return false;
    }
  }

  /**
   * Replays recorded traces of `traceFunctionKey` through `fn` and returns per-item results with outlines and
   * token usage. Pass the function wrapped by `withTrace` or the plain implementation. Throws
   * `ReplayBarrierTimeoutError` (without completing the run) when the replayed traces are not confirmed persisted
   * in time.
   */
  async replay(traceFunctionKey: string, fn: (...args: any[]) => unknown, options: ReplayOptions = {}): Promise<ReplayResult> {
    this.requireKey();
    return runReplay(
      {
        replayApi: new ReplayApi(this.api),
        acks: this.pipeline.transport.acks,
        acksProvePersistence: this.config.mode.kind === "direct",
        invoke: (key, target, args, pending) => this.invokeForReplay(key, target, args, pending),
        flushAll: (timeoutMs) => flushAllLive(timeoutMs),
      },
      traceFunctionKey,
      fn,
      options,
    );
  }

  /** Exports everything this client recorded so far. Resolves false on failure or timeout; never throws. */
  flushTraces(timeoutMs = 30_000): Promise<boolean> {
    return this.pipeline.flush(timeoutMs).catch(() => false);
  }

  /** Flushes, then shuts this client's transport down for good; spans recorded afterwards are not sent. */
  close(timeoutMs = 30_000): Promise<boolean> {
    return this.pipeline.close(timeoutMs).catch(() => false);
  }

  private wrap<F extends (...args: any[]) => any>(spec: RunSpec, fn: F): F {
    const recorder = this.recorder;
    const enabled = this.enabled;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      return enabled ? recorder.run(spec, this, args, fn) : fn.apply(this, args);
    };
    Object.defineProperty(wrapped, "name", { value: fn.name, configurable: true });
    return wrapped as unknown as F;
  }

  private invokeForReplay(key: string, fn: (...args: any[]) => unknown, args: unknown[], pending: PendingReplay) {
    const marker = (fn as unknown as Record<symbol, TracedMarker | undefined>)[TRACED];
    if (marker && marker.traceFunctionKey !== key) {
      warnOnce(this.logger, `replay-key:${key}`, `replay("${key}") was given a function traced as "${marker.traceFunctionKey}".`);
    }
    const target = marker ? fn : this.withTrace(key, fn);
    return contextStorage.run({ pendingReplay: pending }, () => target(...args));
  }

  private requireKey(): void {
    if (!this.enabled) throw new RepriseConfigError("No API key: pass apiKey or set REPRISE_API_KEY.");
  }
}
