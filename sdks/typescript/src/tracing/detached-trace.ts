import type { ApiClient } from "../http/api-client.js";

/** Timeout of a detached trace update (docs/sdk-transport.md, "Timeouts"). */
const PATCH_TIMEOUT_MS = 10_000;

/**
 * Updates a trace by id after it left the current context, through `PATCH /api/sdk/traces/{id}` (docs/api/traces.md,
 * "PATCH /api/sdk/traces/{traceId}"). Blocking: each call resolves when the server accepted it and throws
 * `RepriseApiError` on rejection. One operation per request.
 */
export class DetachedTrace {
  /** @internal */
  constructor(
    /** The canonical trace id. */
    readonly id: string,
    private readonly api: ApiClient,
  ) {}

  /** Replaces the trace title. */
  setName(name: string): Promise<void> {
    return this.patch({ setName: name });
  }

  /** Shallow-merges keys into the trace metadata. */
  mergeMetadata(metadata: Record<string, unknown>): Promise<void> {
    return this.patch({ mergeMetadata: metadata });
  }

  /** Appends context objects to the trace. */
  addContext(...contexts: Array<Record<string, unknown>>): Promise<void> {
    return this.patch({ appendContexts: contexts });
  }

  /** Replaces the session id. */
  setSessionId(sessionId: string): Promise<void> {
    return this.patch({ setSessionId: sessionId });
  }

  private async patch(body: Record<string, unknown>): Promise<void> {
    await this.api.call("PATCH", `/traces/${encodeURIComponent(this.id)}`, body, { timeoutMs: PATCH_TIMEOUT_MS });
  }
}
