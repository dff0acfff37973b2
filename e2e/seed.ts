// Seeds traces through the real OTLP endpoint, as the SDKs send them (wire-facts §6: one carrier per
// span payload and one for the trace completion).
import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";

export interface SeedSpan {
  name: string;
  parent?: string;
  type?: string;
  input?: unknown;
  output?: unknown;
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
  const ids = new Map(o.spans.map((s) => [s.name, randomUUID()]));
  const iso = (ms: number) => new Date(base + ms).toISOString();
  const spanCarriers = o.spans.map((s) =>
    carrier("external_span", {
      type: "sdk-function",
      source: "typescript-sdk-function",
      sourceTraceId: traceId,
      traceFunctionKey: o.traceFunctionKey,
      sdkVersion: "e2e",
      rawSpan: {
        id: ids.get(s.name),
        trace_id: traceId,
        ...(s.parent ? { parent_id: ids.get(s.parent) } : {}),
        started_at: iso(s.startMs),
        ended_at: iso(s.endMs),
        span_data: { name: s.name, type: s.type ?? "function", input: s.input ?? [], output: s.output ?? null },
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
