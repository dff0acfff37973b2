import type { ReplayMocks } from "../replay/mocks.js";

/** Who recorded a span (`span_origin.instrumentation.name`, docs/api/ingestion.md): the wrappers, or a framework integration. */
export type Instrumentation = "span" | "trace" | FrameworkInstrumentation;

/** The framework integrations' names; their spans are framework-recorded (observed, exempt from the sim plan). */
export type FrameworkInstrumentation = "openai-agents" | "langgraph" | "claude-agent-sdk" | "vercel-ai";

/** Payload `source` of framework-recorded spans (the server reads them as framework-recorded too). */
export const FRAMEWORK_SOURCES: Record<FrameworkInstrumentation, string> = {
  "openai-agents": "typescript-sdk-openai-tracing",
  langgraph: "typescript-sdk-langgraph",
  "claude-agent-sdk": "typescript-sdk-claude-agent-sdk",
  "vercel-ai": "typescript-sdk-vercel-ai",
};

/** Span types (docs/replay.md, "Complete"). Anything else is recorded as `custom`. */
export type SpanType = "llm" | "agent" | "function" | "guardrail" | "handoff" | "custom";

const SPAN_TYPES = new Set<string>(["llm", "agent", "function", "guardrail", "handoff", "custom"]);

/** Coerces an arbitrary value to a valid span type. */
export function toSpanType(value: unknown): SpanType {
  return typeof value === "string" && SPAN_TYPES.has(value) ? (value as SpanType) : "custom";
}

/** Options of `withSpan` and the `span` decorator. */
export interface SpanOptions {
  /** Span type; default `custom`. */
  type?: SpanType;
  /**
   * During a replay, serve this span from the original's recorded output instead of running the function (a tool
   * call or model call you do not want re-executed). The span is sent with `mocked: true`. Outside a replay, or
   * when the original has no such span, the function runs as usual.
   */
  mockOnReplay?: boolean;
}

/** Options of `withTrace` and the `trace` decorator. */
export interface TraceOptions {
  /** Name of the root span; default the trace function key. */
  spanName?: string;
  /** Type of the root span; default `function`. */
  type?: SpanType;
}

/** Replay attribution carried by a trace run by the replay runner (docs/sdk-transport.md, "Payloads"). */
export interface ReplayAttribution {
  testRunId: string;
  inputSourceSpanId: string;
  inputSourceTraceId: string;
  attempt: number;
  /** Recorded outputs of the original trace, for spans marked `mockOnReplay`. */
  mocks?: ReplayMocks;
}

/** Kind of ingestion stored on the trace (docs/api/ingestion.md, "Trace completion"). */
export type IngestionType = "captured" | "seeded";

/** An entry of a payload's `errors` list (docs/api/ingestion.md, "Span payload"). */
export interface PayloadError {
  source: string;
  error: string;
  step?: string;
}
