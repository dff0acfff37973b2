// The official OpenTelemetry JS exporters as real OTLP clients: carrier spans are
// made by a real tracer, then exported over HTTP as OTLP/JSON or OTLP/protobuf, optionally gzipped.
import { context, trace } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace";
import type { CarrierSpec } from "./payloads.ts";

/** Finished carrier spans; with `oneOtelTrace` they all share one OTel trace (children of one parent). */
export async function carrierSpans(carriers: CarrierSpec[], options: { oneOtelTrace?: boolean } = {}): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  const tracer = provider.getTracer("reprise-test", "0.1.0");
  const parent = options.oneOtelTrace ? tracer.startSpan("parent") : undefined;
  const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
  for (const c of carriers) {
    const prefix = c.prefix ?? "reprise";
    const payload = typeof c.payload === "string" ? c.payload : JSON.stringify(c.payload);
    tracer.startSpan("carrier", { attributes: { [`${prefix}.operation`]: c.operation, [`${prefix}.payload`]: payload } }, ctx).end();
  }
  // The parent is never ended, so only the carriers are exported.
  await provider.forceFlush();
  return memory.getFinishedSpans();
}

export type ExporterKind = "json" | "protobuf";

/** Exports the spans in one request with the official exporter; resolves with its result code (0 = success). */
export async function exportSpans(
  kind: ExporterKind,
  url: string,
  apiKey: string,
  spans: ReadableSpan[],
  options: { gzip?: boolean } = {},
): Promise<{ code: number; error?: Error }> {
  const config = {
    url,
    headers: { Authorization: `Bearer ${apiKey}` },
    compression: (options.gzip ? "gzip" : "none") as never,
    timeoutMillis: 30_000,
  };
  const exporter = kind === "json" ? new JsonExporter(config) : new ProtoExporter(config);
  try {
    return await new Promise((resolve) => exporter.export(spans, resolve));
  } finally {
    await exporter.shutdown();
  }
}
