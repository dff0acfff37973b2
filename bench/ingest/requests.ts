// Request bodies for the ingestion benchmark: OTLP ExportTraceServiceRequests of 128 carriers of about
// 4 KB each (16 traces × 7 spans + their completion), gzipped, in JSON or protobuf. Every request has
// fresh ids, so the server inserts rather than re-upserting the same rows.
import { randomBytes, randomUUID } from "node:crypto";
import zlib from "node:zlib";
import { encodeExportRequest } from "../../proto/otlp.ts";

export type Encoding = "json" | "protobuf";

const WORDS = "the of and a to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part".split(" ");

/** A long run of prose-like words; text() takes slices of it at random offsets (cheap to make). */
const CORPUS = (() => {
  const seed = randomBytes(200_000);
  const words: string[] = [];
  for (let i = 0; i < seed.length; i++) words.push(WORDS[seed[i] % WORDS.length]);
  return words.join(" ");
})();

/** Prose-like text: compresses about as well as real model input and output. */
function text(bytes: number): string {
  if (bytes > CORPUS.length / 2) {
    let out = "";
    while (out.length < bytes) out += text(Math.min(bytes - out.length, CORPUS.length / 2)) + " ";
    return out.slice(0, bytes);
  }
  const start = Math.floor(Math.random() * (CORPUS.length - bytes));
  return CORPUS.slice(start, start + bytes);
}

function span(traceId: string, spanId: string, parentId: string | null, i: number, contentBytes: number) {
  const start = new Date(Date.UTC(2026, 10, 22, 10, 0, 0, i * 10)).toISOString();
  const end = new Date(Date.UTC(2026, 10, 22, 10, 0, 1, i * 10)).toISOString();
  return {
    type: "sdk-function",
    source: "typescript-sdk-function",
    sourceTraceId: traceId,
    traceFunctionKey: "bench-agent",
    sdkVersion: "0.1.0",
    rawSpan: {
      id: spanId,
      trace_id: traceId,
      ...(parentId ? { parent_id: parentId } : {}),
      started_at: start,
      ended_at: end,
      span_origin: { name: "reprise.sdk.typescript", version: "0.1.0", instrumentation: { name: "span" } },
      span_data: {
        name: `step-${i}`,
        type: i === 0 ? "agent" : "llm",
        input: [{ role: "user", content: text(contentBytes / 2) }],
        output: { text: text(contentBytes / 2) },
        contexts: [{ model: "gpt-bench", inputTokens: 120 + i, outputTokens: 40 + i }],
      },
    },
  };
}

function completion(traceId: string, spans: number) {
  return {
    type: "sdk-function",
    source: "typescript-sdk-function",
    traceFunctionKey: "bench-agent",
    completed: true,
    expectedSpanCount: spans,
    sdkVersion: "0.1.0",
    externalTrace: { id: traceId, started_at: "2026-11-22T10:00:00.000Z", ended_at: "2026-11-22T10:00:02.000Z", metadata: { bench: true } },
  };
}

/** Payloads (operation, JSON text) of one request: `traces` traces of `spansPerTrace` spans + completion. */
export function carriers(traces: number, spansPerTrace: number, contentBytes: number): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let t = 0; t < traces; t++) {
    const traceId = randomUUID();
    const root = randomUUID();
    for (let i = 0; i < spansPerTrace; i++) {
      out.push(["external_span", JSON.stringify(span(traceId, i === 0 ? root : randomUUID(), i === 0 ? null : root, i, contentBytes))]);
    }
    out.push(["external_trace", JSON.stringify(completion(traceId, spansPerTrace))]);
  }
  return out;
}

function envelope(payloads: Array<[string, string]>) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "reprise-bench" } }] },
        scopeSpans: [
          {
            scope: { name: "reprise", version: "0.1.0" },
            spans: payloads.map(([operation, payload]) => ({
              traceId: randomBytes(16).toString("hex"),
              spanId: randomBytes(8).toString("hex"),
              name: "carrier",
              kind: 1,
              startTimeUnixNano: "1795341600000000000",
              endTimeUnixNano: "1795341601000000000",
              attributes: [
                { key: "reprise.operation", value: { stringValue: operation } },
                { key: "reprise.payload", value: { stringValue: payload } },
              ],
            })),
          },
        ],
      },
    ],
  };
}

export interface BenchRequest {
  body: Buffer;
  carriers: number;
  rawBytes: number;
}

/** One gzipped request body. */
export function buildRequest(encoding: Encoding, payloads: Array<[string, string]>, level = 6): BenchRequest {
  const message = envelope(payloads);
  const raw =
    encoding === "json"
      ? Buffer.from(JSON.stringify(message))
      : Buffer.from(
          encodeExportRequest({
            resourceSpans: message.resourceSpans.map((rs) => ({
              ...rs,
              scopeSpans: rs.scopeSpans.map((ss) => ({
                ...ss,
                spans: ss.spans.map((s) => ({ ...s, traceId: Buffer.from(s.traceId, "hex"), spanId: Buffer.from(s.spanId, "hex") })),
              })),
            })) as never,
          }),
        );
  // Level 1: the benchmark builds thousands of bodies before it starts, and level 6 costs ~7× the CPU
  // for ~25% fewer bytes; inflating either costs the server about the same.
  return { body: zlib.gzipSync(raw, { level }), carriers: payloads.length, rawBytes: raw.length };
}

/** A span payload and its rawSpan, kept to check the read-back against what was sent. */
export interface SentSpan {
  id: string;
  rawSpan: unknown;
}

/**
 * A stream of carriers shaped like an SDK's exports: traces of `spansPerTrace` spans (a root and its
 * steps) each followed by its completion, cut into requests of `perRequest` carriers regardless of trace
 * boundaries, so a trace's spans and completion often travel in different requests over different
 * connections (the server's completion logic sees them in any order).
 */
export function carrierStream(spansPerTrace: number, perRequest: number, contentBytes: number) {
  let pending: Array<[string, string]> = [];
  let pendingSpans: SentSpan[] = [];
  const addTrace = () => {
    const traceId = randomUUID();
    const root = randomUUID();
    for (let i = 0; i < spansPerTrace; i++) {
      const s = span(traceId, i === 0 ? root : randomUUID(), i === 0 ? null : root, i, contentBytes);
      pending.push(["external_span", JSON.stringify(s)]);
      pendingSpans.push({ id: s.rawSpan.id, rawSpan: s.rawSpan });
    }
    pending.push(["external_trace", JSON.stringify(completion(traceId, spansPerTrace))]);
  };
  return {
    /** The next request's carriers and the spans among them. */
    next(): { payloads: Array<[string, string]>; spans: SentSpan[] } {
      while (pending.length < perRequest) addTrace();
      const payloads = pending.slice(0, perRequest);
      pending = pending.slice(perRequest);
      const count = payloads.filter(([op]) => op === "external_span").length;
      const spans = pendingSpans.slice(0, count);
      pendingSpans = pendingSpans.slice(count);
      return { payloads, spans };
    },
  };
}

/**
 * One trace of `total` spans shaped like an agent loop: a root agent span, then iterations of one LLM
 * call and one tool call each under the root, cut into requests of `perRequest` carriers; the completion
 * (expectedSpanCount = total) is returned separately so it can race the last spans.
 */
export function bigTrace(total: number, perRequest: number, contentBytes: number): { traceId: string; requests: Array<Array<[string, string]>>; completion: Array<[string, string]> } {
  const traceId = randomUUID();
  const root = randomUUID();
  const all: Array<[string, string]> = [];
  for (let i = 0; i < total; i++) {
    const s = span(traceId, i === 0 ? root : randomUUID(), i === 0 ? null : root, i, contentBytes);
    if (i > 0) {
      s.rawSpan.span_data.type = i % 2 === 1 ? "llm" : "tool";
      s.rawSpan.span_data.name = `${i % 2 === 1 ? "llm" : "tool"}-${Math.ceil(i / 2)}`;
    }
    all.push(["external_span", JSON.stringify(s)]);
  }
  const requests: Array<Array<[string, string]>> = [];
  for (let i = 0; i < all.length; i += perRequest) requests.push(all.slice(i, i + perRequest));
  return { traceId, requests, completion: [["external_trace", JSON.stringify(completion(traceId, total))]] };
}
