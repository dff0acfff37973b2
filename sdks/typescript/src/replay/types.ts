/**
 * Token usage as reported by Reprise: `{input, output, cached, total}` (docs/api/replay.md,
 * "POST /api/sdk/replay/start").
 */
export interface TokenUsage {
  input: number | null;
  output: number | null;
  cached: number | null;
  total: number | null;
}

/** One span of a trace outline (docs/replay.md, "Complete"). */
export interface OutlineSpan {
  spanId: string;
  name?: string | null;
  type: string;
  traceFunctionKey?: string | null;
  durationMs?: number | null;
  tokens?: TokenUsage | null;
  model?: string | null;
  errors: Array<{ source: string; error: string; step?: string }> | null;
  mocked: boolean;
  children: OutlineSpan[];
}

/** A trace outline: the span tree without inputs or outputs (docs/replay.md, "Complete"). */
export interface TraceOutline {
  traceId?: string;
  name?: string | null;
  status: string;
  traceFunctionKey?: string | null;
  durationMs?: number | null;
  spanCount: number;
  spans?: OutlineSpan[];
  [key: string]: unknown;
}

/** Options of `replay()`. Select traces with one of `limit`, `traceIds` or `datasetIds`. */
export interface ReplayOptions {
  /** Replay the most recent N traces (1..5,000, default 5) when no ids are given. */
  limit?: number;
  /** Replay these original traces (at most 100). */
  traceIds?: string[];
  /** Replay the union of these datasets' traces (at most 50). */
  datasetIds?: string[];
  /** Graders attached to the run (at most 100). */
  graderIds?: string[];
  /** Display name of the run. */
  name?: string;
  /** Items run at once; default 10. */
  concurrency?: number;
  /** How long to wait for every replayed trace to be persisted; default 30,000 ms. */
  barrierTimeoutMs?: number;
  /** Interval of `replay/status` polling; default 100 ms. */
  pollIntervalMs?: number;
}

/** Result of one replayed item. */
export interface ReplayItemResult {
  originalTraceId: string;
  originalSpanId: string;
  /** SDK-generated id of the replay trace (undefined when the item could not run). */
  replayTraceId?: string;
  /** Persisted server id of the replay trace (equal to `replayTraceId` on Reprise). */
  serverTraceId?: string;
  /** Arguments the function was called with, decoded from the original input. */
  input?: unknown[];
  output?: unknown;
  /** Message of the error the function threw, or why the item could not run. */
  error?: string;
  durationMs?: number;
  tokens: TokenUsage | null;
  outline: TraceOutline | null;
  original: {
    durationMs: number | null;
    tokens: TokenUsage | null;
    model: string | null;
    outline: TraceOutline | null;
  };
}

/** Result of `replay()`. */
export interface ReplayResult {
  testRunId: string;
  experimentId: string;
  /** Absolute URL of the run in the console, when the server named one. */
  url?: string;
  /** Traces the server persisted for the run. */
  traceCount: number;
  items: ReplayItemResult[];
}
