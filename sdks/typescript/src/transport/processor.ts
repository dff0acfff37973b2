import { BatchSpanProcessor, type BatchSpanProcessorOptions, type ReadableSpan } from "@opentelemetry/sdk-trace";

/**
 * OpenTelemetry's BatchSpanProcessor, except that a full queue drops its OLDEST carrier instead of the newest
 * (interface, Limits: "When full, the oldest carriers are dropped"). The base class keeps its queue in
 * `_finishedSpans`; when that field is missing (a future OpenTelemetry release), it degrades to the base
 * behaviour rather than failing.
 */
export class DropOldestBatchSpanProcessor extends BatchSpanProcessor {
  private readonly maxQueue: number;
  private dropped = 0;

  constructor(options: BatchSpanProcessorOptions & { maxQueueSize: number }) {
    super(options);
    this.maxQueue = options.maxQueueSize;
  }

  /** Carriers dropped because the queue was full, since creation. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** Carriers waiting in the queue. */
  get queueLength(): number {
    return this.queue()?.length ?? 0;
  }

  override onEnd(span: ReadableSpan): void {
    const queue = this.queue();
    if (queue !== undefined && queue.length >= this.maxQueue) {
      queue.shift();
      this.dropped += 1;
    }
    super.onEnd(span);
  }

  private queue(): ReadableSpan[] | undefined {
    const candidate = (this as unknown as { _finishedSpans?: unknown })._finishedSpans;
    return Array.isArray(candidate) ? (candidate as ReadableSpan[]) : undefined;
  }
}
