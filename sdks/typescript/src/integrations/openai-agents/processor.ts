import type { Reprise } from "../../client.js";
import { FrameworkRecorder, type FrameworkSpan } from "../core/framework-recorder.js";
import { record, str } from "../core/values.js";
import { type AgentsSpanData, contextsOf, inputOf, outputOf, spanNameOf, spanTypeOf } from "./span-mapping.js";

/** The parts of an OpenAI Agents `Trace` the processor reads. */
export interface AgentsTrace {
  traceId: string;
  name: string;
  groupId?: string | null;
  metadata?: Record<string, unknown>;
}

/** The parts of an OpenAI Agents `Span` the processor reads. */
export interface AgentsSpan {
  traceId: string;
  spanId: string;
  parentId: string | null;
  spanData: AgentsSpanData;
  error: { message: string; data?: Record<string, unknown> } | null;
  startedAt: string | null;
}

/** Options of `createOpenAIAgentsProcessor`. */
export interface OpenAIAgentsProcessorOptions {
  /** Trace function key of traces the processor starts (outside `withTrace`); default the workflow name. */
  traceFunctionKey?: string;
}

/**
 * A `TracingProcessor` for the OpenAI Agents SDK (`addTraceProcessor(processor)`): records each workflow as an
 * `agent` span and each Agents span beneath it, with `instrumentation.name` `openai-agents`. Inside `withTrace` /
 * `withSpan` the workflow nests under the active span; otherwise it starts a trace of its own.
 */
export class RepriseAgentsProcessor {
  private readonly recorder: FrameworkRecorder;
  private readonly traces = new Map<string, FrameworkSpan | undefined>();
  private readonly spans = new Map<string, FrameworkSpan | undefined>();

  constructor(
    client: Reprise,
    private readonly options: OpenAIAgentsProcessorOptions = {},
  ) {
    this.recorder = new FrameworkRecorder(client, "openai-agents");
  }

  /** Opens the workflow span. */
  async onTraceStart(trace: AgentsTrace): Promise<void> {
    this.recorder.guard(() => {
      const name = str(trace.name) ?? "Agent workflow";
      const span = this.recorder.start({ name, type: "agent", input: trace.metadata, traceFunctionKey: this.options.traceFunctionKey ?? name });
      span?.addContext({ openaiTraceId: trace.traceId, ...(trace.groupId ? { groupId: trace.groupId } : {}) });
      this.traces.set(trace.traceId, span);
    });
  }

  /** Ends the workflow span. */
  async onTraceEnd(trace: AgentsTrace): Promise<void> {
    this.recorder.guard(() => {
      const span = this.traces.get(trace.traceId);
      this.traces.delete(trace.traceId);
      span?.end();
    });
  }

  /** Opens a span under its Agents parent (or the workflow). */
  async onSpanStart(span: AgentsSpan): Promise<void> {
    this.recorder.guard(() => {
      const data = span.spanData;
      const parent = (span.parentId !== null ? this.spans.get(span.parentId) : undefined) ?? this.traces.get(span.traceId);
      const name = spanNameOf(data);
      const started = this.recorder.start({
        name,
        type: spanTypeOf(data),
        parent,
        startedAt: span.startedAt ? new Date(span.startedAt) : undefined,
        traceFunctionKey: this.options.traceFunctionKey ?? name,
      });
      this.spans.set(span.spanId, started);
    });
  }

  /** Records what the span carries once the framework filled it in, and ends it. */
  async onSpanEnd(span: AgentsSpan): Promise<void> {
    this.recorder.guard(() => {
      const recorded = this.spans.get(span.spanId);
      this.spans.delete(span.spanId);
      if (recorded === undefined) return;
      const data = span.spanData;
      recorded.setName(spanNameOf(data)); // a handoff knows its target only now
      const input = inputOf(data);
      if (input !== undefined) recorded.setInput(input);
      for (const context of contextsOf(data)) recorded.addContext(context);
      if (span.error) {
        if (record(span.error.data)) recorded.addContext({ errorData: span.error.data });
        recorded.fail(new Error(span.error.message), outputOf(data));
      } else {
        recorded.end(outputOf(data));
      }
    });
  }

  /** Exports what the client recorded so far. */
  async forceFlush(): Promise<void> {
    await this.recorder.flush(30_000);
  }

  /** Flushes; the client stays open (it may serve other integrations). */
  async shutdown(timeout?: number): Promise<void> {
    await this.recorder.flush(timeout ?? 30_000);
  }
}
