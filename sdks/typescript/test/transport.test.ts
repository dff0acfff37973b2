import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig, type RepriseOptions } from "../src/config.js";
import { resetWarnOnceForTests } from "../src/logger.js";
import { Transport, type CarrierRequest } from "../src/transport/transport.js";
import {
  allCarriers,
  captureLogger,
  carriersOf,
  deadUrl,
  type FakeServer,
  startFakeServer,
} from "./helpers/fake-server.js";

const OTLP_PATH = "/api/sdk/otel/v1/traces";
const servers: FakeServer[] = [];
const transports: Transport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close(1_000)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  resetWarnOnceForTests();
});

async function server(handler?: Parameters<typeof startFakeServer>[0]) {
  const s = await startFakeServer(handler);
  servers.push(s);
  return s;
}

function transport(serviceUrl: string, options: RepriseOptions = {}) {
  const { lines, logger } = captureLogger();
  const { config } = resolveConfig(
    { apiKey: "rp_test", serviceUrl, ...options, transport: { scheduledDelayMillis: 60_000, ...options.transport } },
    {},
  );
  const t = new Transport(config, logger);
  transports.push(t);
  return { t, warnings: lines };
}

function spanCarrier(index: number, input: unknown = `question ${index}`): CarrierRequest {
  const spanId = `span-${index}`;
  const now = new Date();
  return {
    operation: "external_span",
    traceId: "trace-1",
    spanId,
    name: "callModel",
    startTime: now,
    endTime: now,
    isError: false,
    payload: {
      type: "sdk-function",
      source: "typescript-sdk-function",
      sourceTraceId: "trace-1",
      traceFunctionKey: "key",
      sdkVersion: "0.1.0",
      rawSpan: {
        id: spanId,
        trace_id: "trace-1",
        started_at: now.toISOString(),
        ended_at: now.toISOString(),
        span_data: { name: "callModel", type: "llm", input: [input], output: "ok" },
      },
    },
  };
}

describe("transport, direct mode", () => {
  it("POSTs OTLP/JSON carriers shaped like docs/api/ingestion.md (\"OTLP\")", async () => {
    const s = await server();
    const { t } = transport(s.url);
    const carrier = spanCarrier(1);
    t.submit(carrier);
    expect(await t.flush(5_000)).toBe(true);
    expect(s.requests).toHaveLength(1);
    const request = s.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe(OTLP_PATH);
    expect(request.headers.authorization).toBe("Bearer rp_test");
    expect(request.headers["content-type"]).toBe("application/json");
    const body = request.json() as any;
    expect(body.resourceSpans).toHaveLength(1);
    expect(body.resourceSpans[0].resource.attributes).toEqual([
      { key: "service.name", value: { stringValue: "reprise-typescript-sdk" } },
      { key: "service.version", value: { stringValue: "0.1.0" } },
    ]);
    expect(body.resourceSpans[0].scopeSpans).toHaveLength(1);
    const span = body.resourceSpans[0].scopeSpans[0].spans[0];
    expect(span.name).toBe("callModel");
    expect(span.kind).toBe(1);
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(typeof span.startTimeUnixNano).toBe("string");
    expect(span.attributes.map((a: any) => a.key)).toEqual(["reprise.operation", "reprise.payload"]);
    expect(carriersOf(request)[0]).toEqual({ operation: "external_span", payload: carrier.payload });
  });

  it("waits exactly for Retry-After: 1 on 429, then delivers", async () => {
    let calls = 0;
    const s = await server(() => (++calls === 1 ? { status: 429, headers: { "Retry-After": "1" } } : { body: {} }));
    const { t } = transport(s.url);
    t.submit(spanCarrier(1));
    expect(await t.flush(10_000)).toBe(true);
    expect(s.requests).toHaveLength(2);
    const waited = s.requests[1]!.receivedAt - s.requests[0]!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3_000);
  });

  it("retries 503 with growing backoff", async () => {
    let calls = 0;
    const s = await server(() => (++calls <= 2 ? { status: 503 } : { body: {} }));
    const { t } = transport(s.url);
    t.submit(spanCarrier(1));
    expect(await t.flush(10_000)).toBe(true);
    expect(s.requests).toHaveLength(3);
    // Base 100 ms doubling, jitter in [50%, 100%): at least 50 ms, then at least 100 ms.
    expect(s.requests[1]!.receivedAt - s.requests[0]!.receivedAt).toBeGreaterThanOrEqual(45);
    expect(s.requests[2]!.receivedAt - s.requests[1]!.receivedAt).toBeGreaterThanOrEqual(95);
  });

  it("does not retry 413 and reports the failure", async () => {
    const s = await server(() => ({ status: 413, body: { error: "too large", code: "payload_too_large" } }));
    const { t, warnings } = transport(s.url);
    t.submit(spanCarrier(1));
    expect(await t.flush(10_000)).toBe(false);
    expect(s.requests).toHaveLength(1);
    expect(warnings.join("\n")).toContain("413");
  });

  it("treats a partial rejection as a failure without retrying", async () => {
    const s = await server(() => ({ body: { partialSuccess: { rejectedSpans: "1", errorMessage: "bad payload" } } }));
    const { t } = transport(s.url);
    t.submit(spanCarrier(1));
    expect(await t.flush(5_000)).toBe(false);
    expect(s.requests).toHaveLength(1);
  });

  it("flushTraces resolves false while the server is down", async () => {
    const { t } = transport(await deadUrl());
    t.submit(spanCarrier(1));
    expect(await t.flush(10_000)).toBe(false);
  });

  it("flush resolves false on timeout", async () => {
    const s = await server(() => new Promise((resolve) => setTimeout(() => resolve({ body: {} }), 3_000)));
    const { t } = transport(s.url);
    t.submit(spanCarrier(1));
    expect(await t.flush(200)).toBe(false);
  });

  it("packs a 10,000-carrier burst into requests never over the byte target, gzipped above 8,192 bytes", async () => {
    const s = await server();
    const target = 100_000;
    const { t } = transport(s.url, { maxRequestBytes: target, transport: { maxQueueSize: 16_384 } });
    for (let i = 0; i < 10_000; i += 1) t.submit(spanCarrier(i, `text `.repeat(100 + (i % 300))));
    expect(await t.flush(60_000)).toBe(true);
    const otlp = s.requests.filter((r) => r.path === OTLP_PATH);
    expect(otlp.length).toBeGreaterThan(10_000 / 128);
    for (const request of otlp) {
      expect(request.body.length).toBeLessThanOrEqual(target);
      expect(carriersOf(request).length).toBeLessThanOrEqual(128);
      if (request.body.length >= 8_192) {
        expect(request.headers["content-encoding"]).toBe("gzip");
        expect(request.wire.length).toBeLessThan(request.body.length);
      } else {
        expect(request.headers["content-encoding"]).toBeUndefined();
      }
    }
    const ids = allCarriers(s).map((c) => (c.payload.rawSpan as { id: string }).id);
    expect(new Set(ids).size).toBe(10_000);
    expect(ids).toHaveLength(10_000);
  });

  it("respects the concurrency limit", async () => {
    const s = await server(() => new Promise((resolve) => setTimeout(() => resolve({ body: {} }), 30)));
    const { t } = transport(s.url, { exportConcurrency: 2, transport: { maxCarriersPerRequest: 1, maxExportBatchSize: 64 } });
    for (let i = 0; i < 40; i += 1) t.submit(spanCarrier(i));
    expect(await t.flush(10_000)).toBe(true);
    expect(s.requests).toHaveLength(40);
    expect(s.maxInFlight).toBeLessThanOrEqual(2);
  });

  it("sends uncompressed when compression is disabled", async () => {
    const s = await server();
    const { t } = transport(s.url, { disableCompression: true });
    for (let i = 0; i < 50; i += 1) t.submit(spanCarrier(i, "x".repeat(1_000)));
    expect(await t.flush(5_000)).toBe(true);
    expect(s.requests.every((r) => r.headers["content-encoding"] === undefined)).toBe(true);
    expect(s.requests[0]!.body.length).toBeGreaterThan(8_192);
  });

  it("trims a 9 MB input with a payload_budget entry and warns once", async () => {
    const s = await server();
    const { t, warnings } = transport(s.url);
    const big = Array.from({ length: 9_000_000 / 8 }, (_, i) => (i * 2654435761 % 99_999_989).toString(36).padStart(8, "0")).join("");
    t.submit(spanCarrier(1, big));
    t.submit(spanCarrier(2, big));
    expect(await t.flush(30_000)).toBe(true);
    const carriers = allCarriers(s);
    expect(carriers).toHaveLength(2);
    for (const carrier of carriers) {
      const data = (carrier.payload.rawSpan as any).span_data;
      expect(data.input).toMatch(/^<unserializable: too_large_\d+_bytes>$/);
      expect(data.output).toBe("ok");
      expect(carrier.payload.errors).toEqual([
        { source: "sdk", step: "payload_budget", error: expect.stringContaining("rawSpan.span_data.input") },
      ]);
    }
    for (const request of s.requests) expect(request.wire.length).toBeLessThanOrEqual(3_000_000);
    expect(warnings.filter((w) => w.includes("payload_budget"))).toHaveLength(1);
  });

  it("sends a compressible oversized carrier intact and alone, gzipped under the target", async () => {
    const s = await server();
    const { t } = transport(s.url);
    const big = "the same sentence again and again. ".repeat(120_000); // ~4.2 MB raw, compresses well
    t.submit(spanCarrier(1, big));
    t.submit(spanCarrier(2));
    expect(await t.flush(30_000)).toBe(true);
    const alone = s.requests.find((r) => r.body.length > 3_000_000)!;
    expect(alone).toBeDefined();
    expect(alone.headers["content-encoding"]).toBe("gzip");
    expect(alone.wire.length).toBeLessThanOrEqual(3_000_000);
    expect(carriersOf(alone)).toHaveLength(1);
    expect((carriersOf(alone)[0]!.payload.rawSpan as any).span_data.input).toEqual([big]);
  });

  it("drops the oldest carriers past 8,192 queued", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const s = await server(async () => {
      await gate;
      return { body: {} };
    });
    const { t } = transport(s.url);
    const total = 512 + 8_192 + 1_000;
    for (let i = 0; i < total; i += 1) t.submit(spanCarrier(i));
    expect(t.droppedCount).toBe(1_000);
    expect(t.queueLength).toBe(8_192);
    release();
    expect(await t.flush(60_000)).toBe(true);
    const ids = new Set(allCarriers(s).map((c) => Number((c.payload.rawSpan as { id: string }).id.slice(5))));
    expect(ids.size).toBe(512 + 8_192);
    expect(ids.has(0)).toBe(true); // the first batch was already being exported
    expect(ids.has(512)).toBe(false); // the oldest queued ones were dropped
    expect(ids.has(1_511)).toBe(false);
    expect(ids.has(1_512)).toBe(true);
    expect(ids.has(total - 1)).toBe(true);
  });

  it("keeps scheduled exports one at a time while every export fails", async () => {
    const s = await server(() => new Promise((resolve) => setTimeout(() => resolve({ status: 503 }), 40)));
    const { t } = transport(s.url, {
      transport: { maxExportBatchSize: 8, maxCarriersPerRequest: 8, scheduledDelayMillis: 5, maxAttempts: 2, backoffBaseMillis: 5 },
    });
    // The application keeps recording while deliveries fail.
    let next = 0;
    const timer = setInterval(() => {
      for (let i = 0; i < 8; i += 1) t.submit(spanCarrier(next++));
    }, 10);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    clearInterval(timer);
    expect(s.requests.length).toBeGreaterThan(4);
    // OpenTelemetry's processor would start a second export beside a failed one; ours never overlap.
    expect(s.maxInFlight).toBe(1);
  });

  it("close() flushes, then refuses new carriers", async () => {
    const s = await server();
    const { t } = transport(s.url);
    t.submit(spanCarrier(1));
    expect(await t.close(5_000)).toBe(true);
    expect(allCarriers(s)).toHaveLength(1);
    expect(t.submit(spanCarrier(2))).toBe(false);
  });

  it("is lazy: no provider, timer or request before the first carrier", async () => {
    const s = await server();
    const { t } = transport(s.url);
    expect(await t.flush(1_000)).toBe(true);
    expect(s.requests).toHaveLength(0);
  });
});

describe("transport, Collector mode", () => {
  it("sends OTLP/protobuf to <endpoint>/v1/traces and never to Reprise", async () => {
    const collector = await server();
    const reprise = await server();
    const { t } = transport(reprise.url, { otelExporterEndpoint: `${collector.url}/otlp` });
    t.submit(spanCarrier(1));
    expect(await t.flush(5_000)).toBe(true);
    expect(reprise.requests).toHaveLength(0);
    expect(collector.requests).toHaveLength(1);
    const request = collector.requests[0]!;
    expect(request.path).toBe("/otlp/v1/traces");
    expect(request.headers["content-type"]).toBe("application/x-protobuf");
    expect(request.body.includes(Buffer.from("reprise.payload"))).toBe(true);
    expect(request.body.includes(Buffer.from('"sourceTraceId":"trace-1"'))).toBe(true);
  });
});
