import { context } from "@opentelemetry/api";
import { suppressTracing } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace";

/** Options of the carrier queue (docs/sdk-transport.md, rule 10). */
export interface CarrierQueueOptions {
  exporter: SpanExporter;
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMillis: number;
  /** Upper bound on one export call; the exporter keeps its own budget inside it. */
  exportTimeoutMillis: number;
}

/**
 * The batch processor of a client's private provider, owned rather than borrowed from OpenTelemetry because the
 * interface asks for what OpenTelemetry's BatchSpanProcessor does not do: when the queue is full, the OLDEST carrier
 * is dropped (docs/sdk-transport.md, rule 10). One export runs at a time; a full batch is exported at once,
 * anything less after the scheduled delay or on flush.
 */
export class CarrierQueueProcessor implements SpanProcessor {
  private readonly queue: RingBuffer<ReadableSpan>;
  /** Sequence number of the next carrier queued, and of the oldest still queued. */
  private nextSeq = 0;
  private headSeq = 0;
  private dropped = 0;
  private exporting: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(private readonly options: CarrierQueueOptions) {
    this.queue = new RingBuffer(options.maxQueueSize);
  }

  /** Carriers dropped because the queue was full, since creation. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** Carriers waiting in the queue. */
  get queueLength(): number {
    return this.queue.length;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped) return;
    if (this.queue.isFull) {
      this.queue.shift();
      this.headSeq += 1;
      this.dropped += 1;
    }
    this.queue.push(span);
    this.nextSeq += 1;
    if (this.queue.length >= this.options.maxExportBatchSize) this.exportNow();
    else this.schedule();
  }

  /** Exports every carrier queued when it was called, and waits for exports already running. */
  async forceFlush(): Promise<void> {
    const target = this.nextSeq;
    for (;;) {
      if (this.exporting) await this.exporting;
      else if (this.headSeq < target && this.queue.length > 0) this.startExport();
      else return;
    }
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.options.exporter.shutdown();
  }

  private exportNow(): void {
    if (!this.exporting) this.startExport();
  }

  private schedule(): void {
    if (this.timer || this.exporting) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.exportNow();
    }, this.options.scheduledDelayMillis);
    this.timer.unref?.();
  }

  /** Takes one batch off the head of the queue and exports it; chains the next batch when the queue is full. */
  private startExport(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch: ReadableSpan[] = [];
    while (batch.length < this.options.maxExportBatchSize && this.queue.length > 0) batch.push(this.queue.shift() as ReadableSpan);
    this.headSeq += batch.length;
    if (batch.length === 0) return;
    this.exporting = this.exportBatch(batch).finally(() => {
      this.exporting = undefined;
      if (this.queue.length >= this.options.maxExportBatchSize) this.exportNow();
      else if (this.queue.length > 0) this.schedule();
    });
  }

  private exportBatch(batch: ReadableSpan[]): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.exportTimeoutMillis);
      timer.unref?.();
      // The exporter's own HTTP calls must not be traced by an instrumented host application.
      context.with(suppressTracing(context.active()), () => {
        // Outcomes are counted by the exporter itself and read by the transport's flush.
        this.options.exporter.export(batch, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    });
  }
}

/** A fixed-capacity FIFO with O(1) push and shift. */
class RingBuffer<T> {
  private readonly items: Array<T | undefined>;
  private head = 0;
  length = 0;

  constructor(private readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  get isFull(): boolean {
    return this.length >= this.capacity;
  }

  push(item: T): void {
    this.items[(this.head + this.length) % this.capacity] = item;
    this.length += 1;
  }

  shift(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.length -= 1;
    return item;
  }
}
