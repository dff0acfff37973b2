import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Reprise } from "../../client.js";
import type { SpanType } from "../../tracing/types.js";
import { FrameworkRecorder, type FrameworkSpan } from "../core/framework-recorder.js";
import { parseJson } from "../core/values.js";
import { graphContext, HIDDEN_TAG, isRoute, llmContext, llmOutput, mayBeRouter, nodeOf, plain, requestedModel, runName } from "./run-mapping.js";

/** Options of `RepriseLangGraphHandler`. */
export interface LangGraphHandlerOptions {
  /** Trace function key of traces the handler starts (outside `withTrace`); default the graph's run name. */
  traceFunctionKey?: string;
}

/** What opening a span takes, kept for a run whose span waits until it is known to be wanted. */
interface SpanStart {
  name: string;
  type: SpanType;
  input: unknown;
  contexts: Array<Record<string, unknown>>;
  startedAt: Date;
}

/**
 * A run the handler saw: its span, or none for hidden runs (kept only to find the parent of their children).
 * A possible router's span waits in `deferred` until its answer shows it was not a route.
 */
interface Run {
  span: FrameworkSpan | undefined;
  parentRunId: string | undefined;
  model?: string;
  /** The graph node this run is, when it is a node's run. */
  node?: string;
  deferred?: SpanStart;
}

type Meta = Record<string, unknown> | undefined;

/**
 * A LangChain callback handler that records LangGraph runs: the graph, each node, and the model and tool calls
 * inside, with `instrumentation.name` `langgraph`. Runs tagged `langsmith:hidden` (the scheduler's writes and
 * branches) are only used to parent their children and are never submitted (docs/sdk-transport.md, rule 12).
 * Pass it in `callbacks` of `invoke`/`stream`. Callbacks are awaited inline, so the graph nests under the active
 * `withTrace`/`withSpan`.
 */
export class RepriseLangGraphHandler extends BaseCallbackHandler {
  /** Handler name LangChain uses in its own logs. */
  name = "reprise_langgraph_handler";
  private readonly recorder: FrameworkRecorder;
  private readonly runs = new Map<string, Run>();

  constructor(
    client: Reprise,
    private readonly options: LangGraphHandlerOptions = {},
  ) {
    super({ _awaitHandler: true });
    this.recorder = new FrameworkRecorder(client, "langgraph");
  }

  override handleChainStart(chain: unknown, inputs: unknown, runId: string, parentRunId?: string, tags?: string[], metadata?: Meta, _runType?: string, name?: string): void {
    const parentNode = parentRunId === undefined ? undefined : this.runs.get(parentRunId)?.node;
    if (!tags?.includes(HIDDEN_TAG) && mayBeRouter(chain, metadata, parentNode)) {
      const start = { name: runName(chain, name, "chain"), type: "custom" as const, input: plain(inputs), contexts: graphContext(metadata), startedAt: new Date() };
      this.runs.set(runId, { span: undefined, parentRunId, deferred: start });
      return;
    }
    const top = parentRunId === undefined || this.visibleParent(parentRunId) === undefined;
    this.open(runId, parentRunId, tags, runName(chain, name, "chain"), top ? "agent" : "custom", inputs, graphContext(metadata));
    const run = this.runs.get(runId);
    if (run) run.node = nodeOf(tags, metadata);
  }

  override handleChainEnd(outputs: unknown, runId: string): void {
    const run = this.runs.get(runId);
    // A router's answer (the next node's name) is never submitted: the next node's span shows the decision.
    if (run?.deferred && isRoute(outputs)) {
      this.runs.delete(runId);
      return;
    }
    this.close(runId, (span) => span.end(plain(outputs)));
  }

  override handleChainError(error: unknown, runId: string): void {
    this.close(runId, (span) => span.fail(error));
  }

  override handleChatModelStart(llm: unknown, messages: unknown[][], runId: string, parentRunId?: string, extraParams?: Meta, tags?: string[], metadata?: Meta, name?: string): void {
    this.openModel(llm, messages.length === 1 ? messages[0] : messages, runId, parentRunId, extraParams, tags, metadata, name);
  }

  override handleLLMStart(llm: unknown, prompts: string[], runId: string, parentRunId?: string, extraParams?: Meta, tags?: string[], metadata?: Meta, name?: string): void {
    this.openModel(llm, prompts.length === 1 ? prompts[0] : prompts, runId, parentRunId, extraParams, tags, metadata, name);
  }

  override handleLLMEnd(output: unknown, runId: string): void {
    const model = this.runs.get(runId)?.model;
    this.close(runId, (span) => {
      for (const context of llmContext(output, model)) span.addContext(context);
      span.end(llmOutput(output));
    });
  }

  override handleLLMError(error: unknown, runId: string): void {
    this.close(runId, (span) => span.fail(error));
  }

  override handleToolStart(tool: unknown, input: string, runId: string, parentRunId?: string, tags?: string[], metadata?: Meta, name?: string, toolCallId?: string): void {
    const contexts = [...graphContext(metadata), ...(toolCallId ? [{ toolCallId }] : [])];
    this.open(runId, parentRunId, tags, runName(tool, name, "tool"), "function", parseJson(input), contexts);
  }

  override handleToolEnd(output: unknown, runId: string): void {
    this.close(runId, (span) => span.end(plain(output)));
  }

  override handleToolError(error: unknown, runId: string): void {
    this.close(runId, (span) => span.fail(error));
  }

  override handleRetrieverStart(retriever: unknown, query: string, runId: string, parentRunId?: string, tags?: string[], metadata?: Meta, name?: string): void {
    this.open(runId, parentRunId, tags, runName(retriever, name, "retriever"), "function", query, graphContext(metadata));
  }

  override handleRetrieverEnd(documents: unknown, runId: string): void {
    this.close(runId, (span) => span.end(plain(documents)));
  }

  override handleRetrieverError(error: unknown, runId: string): void {
    this.close(runId, (span) => span.fail(error));
  }

  private openModel(llm: unknown, input: unknown, runId: string, parentRunId: string | undefined, extraParams: Meta, tags: string[] | undefined, metadata: Meta, name: string | undefined): void {
    const model = requestedModel(extraParams, metadata);
    this.open(runId, parentRunId, tags, runName(llm, name, "llm"), "llm", plain(input), [], model);
  }

  private open(runId: string, parentRunId: string | undefined, tags: string[] | undefined, name: string, type: SpanType, input: unknown, contexts: Array<Record<string, unknown>>, model?: string): void {
    this.recorder.guard(() => {
      if (tags?.includes(HIDDEN_TAG)) {
        this.runs.set(runId, { span: undefined, parentRunId });
        return;
      }
      const span = this.startSpan(parentRunId, { name, type, input, contexts, startedAt: new Date() });
      this.runs.set(runId, { span, parentRunId, model });
    });
  }

  private startSpan(parentRunId: string | undefined, start: SpanStart): FrameworkSpan | undefined {
    const parent = this.visibleParent(parentRunId);
    const { name, type, input, contexts, startedAt } = start;
    const span = this.recorder.start({ name, type, parent, input: plain(input), startedAt, traceFunctionKey: this.options.traceFunctionKey ?? name });
    for (const context of contexts) span?.addContext(context);
    return span;
  }

  /** The span of a run whose span was deferred, opened now that it is wanted (with its real start time). */
  private materialize(run: Run): FrameworkSpan | undefined {
    if (run.deferred) {
      const start = run.deferred;
      run.deferred = undefined;
      run.span = this.startSpan(run.parentRunId, start);
    }
    return run.span;
  }

  private close(runId: string, end: (span: FrameworkSpan) => void): void {
    this.recorder.guard(() => {
      const run = this.runs.get(runId);
      this.runs.delete(runId);
      const span = run ? this.materialize(run) : undefined;
      if (span) end(span);
    });
  }

  /** The nearest ancestor run that has a span (hidden runs are skipped). */
  private visibleParent(parentRunId: string | undefined): FrameworkSpan | undefined {
    let id = parentRunId;
    for (let hops = 0; id !== undefined && hops < 1_000; hops += 1) {
      const run = this.runs.get(id);
      if (run === undefined) return undefined;
      // Something runs inside a possible router: it is more than a route, so it is shown.
      if (run.deferred !== undefined) return this.materialize(run);
      if (run.span !== undefined) return run.span;
      id = run.parentRunId;
    }
    return undefined;
  }
}
