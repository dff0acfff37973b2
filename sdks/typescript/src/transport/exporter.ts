import type http from "node:http";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import type { ResolvedConfig } from "../config.js";
import { sendHttp } from "../http/request.js";
import { type RepriseLogger, ThrottledWarner, warnOnce } from "../logger.js";
import type { AckTracker } from "./ack-tracker.js";
import { classifyOtlpOutcome } from "./classify.js";
import { maybeGzip, type PreparedBody } from "./compress.js";
import type { EnvelopeCodec } from "./envelope.js";
import { packCarriers } from "./packer.js";
import { escapedBytes, FALLBACK_BUDGET, PER_SPAN_BUDGET, trimPayload } from "./payload-budget.js";
import { type DeliveryResult, sendWithRetry } from "./retrying-sender.js";
import { Semaphore, Throttle } from "./throttle.js";
import { type CarrierInfo, OPERATION_ATTRIBUTE, PAYLOAD_ATTRIBUTE } from "./types.js";

/** Decompressed request ceiling of the server (docs/api.md, "Common rules": Bodies). */
export const DECOMPRESSED_CEILING = 8_000_000;

/** Outcome of one export call: every request delivered, or how many failed and why. */
export type BatchResult =
  | { kind: "success"; requests: number }
  | { kind: "failure"; requests: number; failed: number; error: Error };

/** What the exporter needs from its transport. */
export interface ExporterDeps {
  config: ResolvedConfig;
  codec: EnvelopeCodec;
  logger: RepriseLogger;
  acks: AckTracker;
  infoOf(span: ReadableSpan): CarrierInfo | undefined;
  agent?: http.Agent;
}

interface Prepared {
  span: ReadableSpan;
  bytes: Uint8Array;
}

interface PlannedRequest {
  carriers: Prepared[];
  raw?: Uint8Array;
  body?: PreparedBody;
}

/**
 * The SpanExporter of the private provider: packs each batch into size-bounded requests, sends up to N at once,
 * gzips, retries through one shared throttle, and trims oversized carriers (docs/sdk-transport.md, rules 3-9).
 */
export class RepriseSpanExporter implements SpanExporter {
  private readonly throttle = new Throttle();
  private readonly semaphore: Semaphore;
  private readonly warner: ThrottledWarner;
  private readonly inFlight = new Set<Promise<BatchResult>>();
  private failures = 0;

  constructor(private readonly deps: ExporterDeps) {
    this.semaphore = new Semaphore(deps.config.exportConcurrency);
    this.warner = new ThrottledWarner(deps.logger);
  }

  /**
   * OpenTelemetry's exporter entry point. Outcomes are counted here and read by the transport's flush (a failed
   * export is not retried by the processor: the retries happen per request inside the export budget), so the
   * processor is always told SUCCESS.
   */
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    const running = this.exportBatch(spans).catch(
      (error: unknown): BatchResult => ({ kind: "failure", requests: 0, failed: 0, error: error as Error }),
    );
    this.inFlight.add(running);
    void running.then((result) => {
      this.inFlight.delete(running);
      if (result.kind === "failure") this.failures += 1;
      resultCallback({ code: ExportResultCode.SUCCESS });
    });
  }

  /** Export calls that failed since creation. */
  get failureCount(): number {
    return this.failures;
  }

  /** Resolves when no export call is in flight. */
  async whenIdle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  /** Nothing is buffered here; the processor owns the queue. */
  async forceFlush(): Promise<void> {}

  /** Idle keep-alive sockets are released by the transport. */
  async shutdown(): Promise<void> {}

  /** Exports one batch within the export budget and reports a discriminated result. */
  async exportBatch(spans: ReadableSpan[]): Promise<BatchResult> {
    const deadline = Date.now() + this.deps.config.tuning.exportTimeoutMillis;
    const requests = await this.plan(spans.map((span) => this.prepare(span)));
    const results = await Promise.all(requests.map((request) => this.send(request, deadline)));
    const failures = results.filter((r): r is Extract<DeliveryResult, { kind: "failed" }> => r.kind === "failed");
    if (failures.length === 0) return { kind: "success", requests: requests.length };
    const first = failures[0] as Extract<DeliveryResult, { kind: "failed" }>;
    const message = `could not deliver ${failures.length} of ${requests.length} request(s) to ${this.deps.config.mode.url}: ${first.message}`;
    this.warner.warn(`delivery:${first.status ?? "network"}`, message);
    return { kind: "failure", requests: requests.length, failed: failures.length, error: new Error(message) };
  }

  private prepare(span: ReadableSpan): Prepared {
    return { span, bytes: this.deps.codec.encodeCarrier(span) };
  }

  private async plan(prepared: Prepared[]): Promise<PlannedRequest[]> {
    const { codec, config } = this.deps;
    const normal: Prepared[] = [];
    const oversized: Prepared[] = [];
    for (const p of prepared) {
      (codec.requestSize(p.bytes.byteLength, 1) > config.maxRequestBytes ? oversized : normal).push(p);
    }
    const groups = packCarriers(
      normal.map((p) => p.bytes.byteLength),
      { maxCarriers: config.tuning.maxCarriersPerRequest, maxBytes: config.maxRequestBytes, requestSize: codec.requestSize.bind(codec) },
    );
    const requests: PlannedRequest[] = groups.map((group) => {
      const carriers = group.map((index) => normal[index] as Prepared);
      return { carriers, raw: codec.assemble(carriers.map((c) => c.bytes)) };
    });
    for (const p of oversized) requests.push(await this.planOversized(p));
    return requests;
  }

  /**
   * A carrier over the packing target goes alone: intact when it gzips under the target and stays under the
   * decompressed ceiling, else trimmed to the fallback budget (docs/sdk-transport.md, rules 5 and 7).
   */
  private async planOversized(original: Prepared): Promise<PlannedRequest> {
    const { codec, config } = this.deps;
    let current = original;
    if (escapedBytes(payloadOf(current.span)) > PER_SPAN_BUDGET) current = this.trim(current, PER_SPAN_BUDGET);
    const raw = codec.assemble([current.bytes]);
    if (config.compression && raw.byteLength <= DECOMPRESSED_CEILING) {
      const body = await maybeGzip(raw, true);
      if (body.gzipped && body.body.byteLength <= config.maxRequestBytes) return { carriers: [current], body };
    }
    current = this.trim(current, this.fallbackBudget(current));
    return { carriers: [current], raw: codec.assemble([current.bytes]) };
  }

  /** The fallback budget, lowered when a smaller request target leaves less room for the payload. */
  private fallbackBudget(prepared: Prepared): number {
    const envelope = this.deps.codec.requestSize(0, 1);
    const nonPayload = prepared.bytes.byteLength - escapedBytes(payloadOf(prepared.span));
    return Math.max(0, Math.min(FALLBACK_BUDGET, this.deps.config.maxRequestBytes - envelope - nonPayload));
  }

  private trim(prepared: Prepared, budget: number): Prepared {
    const info = this.deps.infoOf(prepared.span);
    const operation = info?.operation ?? (String(prepared.span.attributes[OPERATION_ATTRIBUTE]) as CarrierInfo["operation"]);
    const payload = JSON.parse(payloadOf(prepared.span)) as Record<string, unknown>;
    const result = trimPayload(payload, operation, budget);
    if (result.trimmed.length === 0) return prepared;
    warnOnce(
      this.deps.logger,
      "payload_budget",
      `A ${operation} payload exceeded the carrier budget; oversized fields were replaced with <unserializable: too_large_N_bytes> (recorded under errors, step payload_budget).`,
    );
    const span = withPayload(prepared.span, JSON.stringify(result.payload));
    return { span, bytes: this.deps.codec.encodeCarrier(span) };
  }

  private send(request: PlannedRequest, deadline: number): Promise<DeliveryResult> {
    const { config } = this.deps;
    return this.semaphore.run(async () => {
      const body = request.body ?? (await maybeGzip(request.raw as Uint8Array, config.compression));
      const result = await sendWithRetry((timeoutMs) => this.attempt(body, timeoutMs), {
        deadline,
        throttle: this.throttle,
        policy: { ...config.tuning, maxBackoffMillis: 5_000 },
      });
      if (result.kind === "delivered") this.acknowledge(request, result.body);
      return result;
    });
  }

  private async attempt(prepared: PreparedBody, timeoutMs: number) {
    const { config, codec, agent } = this.deps;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${config.apiKey}`,
      "Content-Type": codec.contentType,
    };
    if (prepared.gzipped) headers["Content-Encoding"] = "gzip";
    const outcome = await sendHttp({ method: "POST", url: config.mode.url, headers, body: prepared.body, timeoutMs, agent });
    return classifyOtlpOutcome(outcome, (body) => codec.readResponse(body));
  }

  private acknowledge(request: PlannedRequest, body: Buffer): void {
    // A Collector's acceptance does not prove persistence (docs/sdk-transport.md, rule 2).
    if (this.deps.config.mode.kind !== "direct") return;
    const infos = request.carriers.map((c) => this.deps.infoOf(c.span)).filter((i): i is CarrierInfo => i !== undefined);
    this.deps.acks.record(infos, this.deps.codec.readResponse(body).traceIds);
  }
}

function payloadOf(span: ReadableSpan): string {
  return String(span.attributes[PAYLOAD_ATTRIBUTE] ?? "");
}

/** A view of `span` with a replaced payload attribute; everything else (ids, times, methods) is inherited. */
function withPayload(span: ReadableSpan, payload: string): ReadableSpan {
  return Object.create(span, {
    attributes: { value: { ...span.attributes, [PAYLOAD_ATTRIBUTE]: payload }, enumerable: true },
  }) as ReadableSpan;
}
