import type { ApiClient } from "../http/api-client.js";
import type { SpanTreeNode } from "./mocks.js";
import type { TokenUsage, TraceOutline } from "./types.js";

/** Client timeout of replay calls (docs/sdk-transport.md, "Timeouts"). */
const REPLAY_TIMEOUT_MS = 30_000;

/** A replay item as the start response describes it (docs/api/replay.md, "POST /api/sdk/replay/start"). */
export interface StartItem {
  externalSpanId?: string;
  originalSpanId?: string;
  sourceSpanId?: string;
  originalTraceId?: string;
  sourceTraceId?: string;
  originalDurationMs?: number | null;
  originalTokens?: TokenUsage | null;
  originalModel?: string | null;
  durationMs?: number | null;
  tokens?: TokenUsage | null;
  model?: string | null;
}

/** The start response fields the runner reads. */
export interface StartResponse {
  testRunId?: string;
  experimentId?: string;
  testRunUrl?: string;
  experimentUrl?: string;
  items?: StartItem[];
}

/** The complete response (docs/api/replay.md, "POST /api/sdk/replay/complete"). */
export interface CompleteResponse {
  traceIds?: Record<string, string>;
  tokens?: Record<string, TokenUsage | null>;
  traceCount?: number;
  traceOutlines?: Record<string, TraceOutline>;
  originalTraceOutlines?: Record<string, TraceOutline>;
}

/** The original span in replay view (docs/api/traces.md, "GET /api/sdk/externalSpans/{id}"). */
export interface OriginalSpan {
  id?: string;
  externalTraceId?: string;
  rawData?: { span_data?: { input?: unknown; input_meta?: unknown } };
}

/** The replay endpoints, thin and typed. */
export class ReplayApi {
  constructor(private readonly api: ApiClient) {}

  /** `POST /api/sdk/replay/start`. */
  start(body: Record<string, unknown>): Promise<StartResponse> {
    return this.api.call("POST", "/replay/start", body, { timeoutMs: REPLAY_TIMEOUT_MS });
  }

  /** `GET /api/sdk/externalSpans/{id}?view=replay`. */
  originalSpan(spanId: string): Promise<OriginalSpan> {
    return this.api.call("GET", `/externalSpans/${encodeURIComponent(spanId)}?view=replay`, undefined, {
      timeoutMs: REPLAY_TIMEOUT_MS,
    });
  }

  /** `GET /api/sdk/replay/spanTree/{id}`: the original trace with recorded outputs, for mocked spans. */
  async spanTree(spanId: string): Promise<SpanTreeNode | undefined> {
    const body = await this.api.call<{ root?: SpanTreeNode | null }>("GET", `/replay/spanTree/${encodeURIComponent(spanId)}`, undefined, {
      timeoutMs: REPLAY_TIMEOUT_MS,
    });
    return body.root ?? undefined;
  }

  /** `POST /api/sdk/replay/status` with `expectedSpanCounts`: which local traces are fully persisted. */
  async status(testRunId: string, expectedSpanCounts: Record<string, number>, timeoutMs: number): Promise<Record<string, string>> {
    const body = await this.api.call<{ traceIds?: unknown }>(
      "POST",
      "/replay/status",
      { testRunId, experimentId: testRunId, expectedSpanCounts },
      { timeoutMs: Math.min(REPLAY_TIMEOUT_MS, timeoutMs) },
    );
    const ids = body.traceIds;
    if (ids === null || typeof ids !== "object") return {};
    // Older servers answered a list; newer ones a {local: server} map (docs/api/replay.md, "POST /api/sdk/replay/status").
    if (Array.isArray(ids)) return Object.fromEntries(ids.filter((id) => typeof id === "string").map((id) => [id, id]));
    return ids as Record<string, string>;
  }

  /** `POST /api/sdk/replay/complete`. */
  complete(testRunId: string): Promise<CompleteResponse> {
    return this.api.call("POST", "/replay/complete", { testRunId, experimentId: testRunId }, { timeoutMs: REPLAY_TIMEOUT_MS });
  }

  /** Absolute URL from a relative path the server returned. */
  absolute(path: string | undefined): string | undefined {
    if (path === undefined) return undefined;
    return /^https?:\/\//.test(path) ? path : `${this.api.baseUrl}${path.startsWith("/") ? "" : "/"}${path}`;
  }
}
