// Seeds traces through the real OTLP endpoint, as the SDKs send them (docs/sdk-transport.md, rule 1: one carrier per
// span payload and one for the trace completion).
import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";

export interface SeedSpan {
  name: string;
  /** How `parent` refers to this span when several spans share a name; defaults to the name. */
  key?: string;
  /** The parent's key. */
  parent?: string;
  type?: string;
  input?: unknown;
  output?: unknown;
  /** Span contexts; `{model, inputTokens, outputTokens}` give the span its model and tokens. */
  contexts?: object[];
  startMs: number;
  endMs: number;
}

const carrier = (operation: string, payload: unknown, name: string) => ({
  traceId: randomUUID().replace(/-/g, ""),
  spanId: randomUUID().replace(/-/g, "").slice(0, 16),
  name,
  kind: 1,
  startTimeUnixNano: `${Date.now()}000000`,
  endTimeUnixNano: `${Date.now()}000000`,
  attributes: [
    { key: "reprise.operation", value: { stringValue: operation } },
    { key: "reprise.payload", value: { stringValue: JSON.stringify(payload) } },
  ],
});

/** Sends the spans (keyed by name) and the completion of one trace; returns the trace id and span ids. */
export async function seedTrace(api: APIRequestContext, o: { traceFunctionKey: string; name: string; spans: SeedSpan[] }) {
  const traceId = randomUUID();
  const base = Date.now() - 60_000;
  const ids = new Map(o.spans.map((s) => [s.key ?? s.name, randomUUID()]));
  const iso = (ms: number) => new Date(base + ms).toISOString();
  const spanCarriers = o.spans.map((s) =>
    carrier("external_span", {
      type: "sdk-function",
      source: "typescript-sdk-function",
      sourceTraceId: traceId,
      traceFunctionKey: o.traceFunctionKey,
      sdkVersion: "e2e",
      rawSpan: {
        id: ids.get(s.key ?? s.name),
        trace_id: traceId,
        ...(s.parent ? { parent_id: ids.get(s.parent) } : {}),
        started_at: iso(s.startMs),
        ended_at: iso(s.endMs),
        span_data: { name: s.name, type: s.type ?? "function", input: s.input ?? [], output: s.output ?? null, ...(s.contexts ? { contexts: s.contexts } : {}) },
        span_origin: { name: "reprise.sdk.typescript", version: "e2e", instrumentation: { name: "span" } },
      },
    }, s.name),
  );
  const completion = carrier("external_trace", {
    id: traceId,
    type: "sdk-function",
    source: "typescript-sdk-function",
    traceFunctionKey: o.traceFunctionKey,
    completed: true,
    expectedSpanCount: o.spans.length,
    sdkVersion: "e2e",
    name: o.name,
    externalTrace: { id: traceId, started_at: iso(0), ended_at: iso(Math.max(...o.spans.map((s) => s.endMs))), workflow_name: o.traceFunctionKey },
  }, o.traceFunctionKey);
  const res = await api.post("/api/sdk/otel/v1/traces", {
    data: { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "reprise" }, spans: [...spanCarriers, completion] }] }] },
  });
  if (!res.ok()) throw new Error(`OTLP ingest failed: ${res.status()} ${await res.text()}`);
  const body = await res.json();
  if (body.partialSuccess?.rejectedSpans && Number(body.partialSuccess.rejectedSpans) > 0) throw new Error(`rejected: ${JSON.stringify(body)}`);
  return { traceId, spanIds: ids };
}

async function post(api: APIRequestContext, path: string, data: unknown) {
  const res = await api.post(path, { data });
  if (!res.ok()) throw new Error(`${path} failed: ${res.status()} ${await res.text()}`);
  return res.json();
}

/**
 * Replays one original trace the way an SDK does (docs/replay.md, "The flow"): POST /api/sdk/replay/start, the replay's
 * spans through POST /api/sdk/externalSpans and its completion through /externalTraces (both carrying the
 * testRunId), then POST /api/sdk/replay/complete. Returns the run id and the replay trace id.
 */
export async function seedReplay(api: APIRequestContext, o: { traceFunctionKey: string; originalTraceId: string; name: string; spans: SeedSpan[] }) {
  const start = await post(api, "/api/sdk/replay/start", { traceFunctionKey: o.traceFunctionKey, traceIds: [o.originalTraceId], name: o.name });
  const runId: string = start.testRunId;
  const traceId = randomUUID();
  const base = Date.now() - 30_000;
  const iso = (ms: number) => new Date(base + ms).toISOString();
  const ids = new Map(o.spans.map((s) => [s.key ?? s.name, randomUUID()]));
  const common = { type: "sdk-function", source: "typescript-sdk-function", sdkVersion: "e2e", traceFunctionKey: o.traceFunctionKey, testRunId: runId, experimentId: runId };
  for (const s of o.spans) {
    await post(api, "/api/sdk/externalSpans", {
      ...common,
      sourceTraceId: traceId,
      rawSpan: {
        id: ids.get(s.key ?? s.name),
        trace_id: traceId,
        ...(s.parent ? { parent_id: ids.get(s.parent) } : {}),
        started_at: iso(s.startMs),
        ended_at: iso(s.endMs),
        span_data: { name: s.name, type: s.type ?? "function", input: s.input ?? [], output: s.output ?? null, ...(s.contexts ? { contexts: s.contexts } : {}) },
      },
    });
  }
  await post(api, "/api/sdk/externalTraces", {
    ...common,
    id: traceId,
    completed: true,
    expectedSpanCount: o.spans.length,
    externalTrace: { id: traceId, started_at: iso(0), ended_at: iso(Math.max(...o.spans.map((s) => s.endMs))), input_source_trace_id: o.originalTraceId, replay_attempt: 0 },
  });
  await post(api, "/api/sdk/replay/complete", { testRunId: runId, experimentId: runId });
  return { runId, traceId };
}
