import http from "node:http";
import https from "node:https";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { AlwaysOnSampler, type ReadableSpan, TracerProvider } from "@opentelemetry/sdk-trace";
import type { ResolvedConfig } from "../config.js";
import { type RepriseLogger, warnOnce } from "../logger.js";
import { SDK_SCOPE_NAME, SDK_SERVICE_NAME, SDK_VERSION } from "../version.js";
import { AckTracker } from "./ack-tracker.js";
import { createEnvelopeCodec } from "./envelope.js";
import { RepriseSpanExporter } from "./exporter.js";
import { CarrierQueueProcessor } from "./processor.js";
import { type CarrierInfo, type Operation, OPERATION_ATTRIBUTE, PAYLOAD_ATTRIBUTE } from "./types.js";

/** One payload to deliver, wrapped in its own carrier span (docs/sdk-transport.md, rule 1). */
export interface CarrierRequest {
  operation: Operation;
  payload: Record<string, unknown>;
  traceId: string;
  spanId?: string;
  /**
   * Carrier span name: the span name, else the trace function key, else `reprise.<operation>` (docs/sdk-transport.md,
   * "Payloads": Origin).
   */
  name: string;
  startTime: Date;
  endTime: Date;
  /** Sets the carrier status to ERROR (a user error, not an `sdk` capture note). */
  isError: boolean;
}

interface Started {
  provider: TracerProvider;
  processor: CarrierQueueProcessor;
  exporter: RepriseSpanExporter;
  tracer: Tracer;
  agent: http.Agent;
}

/**
 * A client's delivery pipeline: a private OpenTelemetry provider (never the global one) with one bounded batch
 * processor and Reprise's exporter. Built lazily on the first carrier (docs/sdk-transport.md, rule 10).
 */
export class Transport {
  /** Acknowledgments of watched traces, for the replay barrier. */
  readonly acks = new AckTracker();
  private started: Started | undefined;
  private closed = false;
  private readonly carrierInfo = new WeakMap<object, CarrierInfo>();

  constructor(
    private readonly config: ResolvedConfig,
    private readonly logger: RepriseLogger,
  ) {}

  /** True once `close()` was called; later carriers are refused. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Carriers queued in the processor. */
  get queueLength(): number {
    return this.started?.processor.queueLength ?? 0;
  }

  /** Carriers dropped because the queue was full. */
  get droppedCount(): number {
    return this.started?.processor.droppedCount ?? 0;
  }

  /** Queues one carrier. Returns false when the transport is closed. Never throws for a bad payload. */
  submit(carrier: CarrierRequest): boolean {
    if (this.closed) {
      warnOnce(this.logger, "transport-closed", "A span was recorded after close(); it was not sent.");
      return false;
    }
    const { tracer } = this.ensureStarted();
    const span = tracer.startSpan(
      carrier.name,
      {
        root: true,
        kind: SpanKind.INTERNAL,
        startTime: carrier.startTime,
        attributes: { [OPERATION_ATTRIBUTE]: carrier.operation, [PAYLOAD_ATTRIBUTE]: JSON.stringify(carrier.payload) },
      },
      ROOT_CONTEXT,
    );
    this.carrierInfo.set(span, { operation: carrier.operation, traceId: carrier.traceId, spanId: carrier.spanId });
    if (carrier.isError) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(carrier.endTime < carrier.startTime ? carrier.startTime : carrier.endTime);
    return true;
  }

  /** Exports everything queued. Resolves false on exporter failure or timeout (docs/sdk-transport.md, rule 10). */
  async flush(timeoutMs: number): Promise<boolean> {
    const started = this.started;
    if (!started) return true;
    const failuresBefore = started.exporter.failureCount;
    const flushed = (async () => {
      await started.processor.forceFlush();
      await started.exporter.whenIdle(); // exports already running when the flush began count too
      return started.exporter.failureCount === failuresBefore;
    })();
    return withTimeout(flushed, timeoutMs, false);
  }

  /** Flushes, then shuts the processor down for good; later carriers are refused. */
  async close(timeoutMs: number): Promise<boolean> {
    if (this.closed) return true;
    const flushed = await this.flush(timeoutMs);
    this.closed = true;
    const started = this.started;
    if (started) {
      await withTimeout(started.provider.shutdown().then(() => true, () => false), timeoutMs, false);
      started.agent.destroy();
    }
    return flushed;
  }

  private ensureStarted(): Started {
    if (this.started) return this.started;
    const { config } = this;
    const agent = config.mode.url.startsWith("https:")
      ? new https.Agent({ keepAlive: true, maxSockets: config.exportConcurrency })
      : new http.Agent({ keepAlive: true, maxSockets: config.exportConcurrency });
    const exporter = new RepriseSpanExporter({
      config,
      codec: createEnvelopeCodec(config.mode.encoding),
      logger: this.logger,
      acks: this.acks,
      // A trimmed carrier is a prototype view of the original span, whose info is stored.
      infoOf: (span: ReadableSpan) => this.carrierInfo.get(span) ?? this.carrierInfo.get(Object.getPrototypeOf(span)),
      agent,
    });
    const processor = new CarrierQueueProcessor({
      exporter,
      maxQueueSize: config.tuning.maxQueueSize,
      maxExportBatchSize: config.tuning.maxExportBatchSize,
      scheduledDelayMillis: config.tuning.scheduledDelayMillis,
      exportTimeoutMillis: config.tuning.exportTimeoutMillis + 1_000,
    });
    // Explicit sampler and limits: OTEL_* variables meant for the host application must not change carriers.
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": SDK_SERVICE_NAME, "service.version": SDK_VERSION }),
      sampler: new AlwaysOnSampler(),
      spanLimits: { attributeCountLimit: 2, attributeValueLengthLimit: Infinity, eventCountLimit: 0, linkCountLimit: 0 },
      spanProcessors: [processor],
    });
    this.started = { provider, processor, exporter, tracer: provider.getTracer(SDK_SCOPE_NAME, SDK_VERSION), agent };
    return this.started;
  }
}

/** Resolves `promise`, or `fallback` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}
