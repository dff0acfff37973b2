// Reads what the SDK delivered to the fake Reprise: span payloads as a tree, and trace completions.
import { allCarriers, type FakeServer } from "../helpers/fake-server.js";

export interface RecordedSpan {
  id: string;
  parentId: string | undefined;
  traceId: string;
  name: string;
  type: string;
  instrumentation: string;
  source: string;
  startedAt: string;
  data: Record<string, any>;
  contexts: Array<Record<string, any>>;
}

/** A span with its children, in start order (names and types only, for comparing shapes). */
export interface Shape {
  name: string;
  type: string;
  children?: Shape[];
}

/** Every span payload received, in arrival order. */
export function recordedSpans(server: FakeServer): RecordedSpan[] {
  return allCarriers(server)
    .filter((c) => c.operation === "external_span")
    .map(({ payload }) => {
      const raw = payload.rawSpan as Record<string, any>;
      return {
        id: raw.id,
        parentId: raw.parent_id,
        traceId: payload.sourceTraceId as string,
        name: raw.span_data.name,
        type: raw.span_data.type,
        instrumentation: raw.span_origin?.instrumentation?.name,
        source: payload.source as string,
        startedAt: raw.started_at,
        data: raw.span_data,
        contexts: raw.span_data.contexts ?? [],
      };
    });
}

/** Trace completion payloads received. */
export function completions(server: FakeServer): Array<Record<string, any>> {
  return allCarriers(server)
    .filter((c) => c.operation === "external_trace")
    .map((c) => c.payload);
}

/** The span trees of what was recorded (one per root), children in start order. */
export function shapes(spans: RecordedSpan[]): Shape[] {
  const byStart = [...spans].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const build = (span: RecordedSpan): Shape => {
    const children = byStart.filter((s) => s.parentId === span.id).map(build);
    return children.length > 0 ? { name: span.name, type: span.type, children } : { name: span.name, type: span.type };
  };
  return byStart.filter((s) => s.parentId === undefined).map(build);
}

/** The one span named `name`. */
export function spanNamed(spans: RecordedSpan[], name: string): RecordedSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`expected one span named ${name}, found ${found.length}: ${spans.map((s) => s.name).join(", ")}`);
  return found[0]!;
}
