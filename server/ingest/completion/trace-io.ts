// A trace's own input and output (docs/otel.md): the root span's, or, when the root carries none (the
// common case with OpenTelemetry, where the root is an HTTP handler or a workflow), the first LLM span's
// input and the last LLM span's output. They are written onto the root span, which is what graders,
// judges and assertions read as the trace's input and output, with `io_from` naming where they came from.
import type { TIoSpanRow } from "./quiet.queries.ts";

const time = (v: number | string | null) => (v === null ? Number.POSITIVE_INFINITY : Number(v));
const isEmpty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

export interface TDerivedIo {
  rootId: string;
  input: unknown;
  output: unknown;
  ioFrom: { input: string | null; output: string | null };
}

/** What to write on the root span, or null when it keeps its own input and output. */
export function deriveTraceIo(spans: TIoSpanRow[]): TDerivedIo | null {
  const roots = spans.filter((s) => s.sourceParentSpanId === null).sort((a, b) => time(a.startedAt) - time(b.startedAt));
  const root = roots[0];
  if (!root) return null;
  const from = isObject(root.ioFrom) ? root.ioFrom : {};
  // What the root said itself: its value, unless an earlier derivation put it there.
  const ownInput = from.input ? undefined : root.input;
  const ownOutput = from.output ? undefined : root.output;
  const needInput = isEmpty(ownInput);
  const needOutput = isEmpty(ownOutput);
  if (!needInput && !needOutput) return null;
  const llms = spans.filter((s) => s.type === "llm" && s.id !== root.id);
  const first = llms.filter((s) => !isEmpty(s.input)).sort((a, b) => time(a.startedAt) - time(b.startedAt))[0];
  const last = llms.filter((s) => !isEmpty(s.output)).sort((a, b) => time(b.endedAt ?? b.startedAt) - time(a.endedAt ?? a.startedAt))[0];
  const input = needInput ? (first?.input ?? null) : ownInput;
  const output = needOutput ? (last?.output ?? null) : ownOutput;
  const ioFrom = { input: needInput && first ? first.id : null, output: needOutput && last ? last.id : null };
  if (ioFrom.input === null && ioFrom.output === null && !from.input && !from.output) return null;
  return { rootId: root.id, input, output, ioFrom };
}
