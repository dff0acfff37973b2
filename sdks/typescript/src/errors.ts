/** Base class of every error the SDK raises to callers of blocking operations. */
export class RepriseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A blocking call needs an API key and none was configured. */
export class RepriseConfigError extends RepriseError {}

/** The server rejected a blocking call (non-2xx, or a 2xx body with `error`), or could not be reached. */
export class RepriseApiError extends RepriseError {
  constructor(
    message: string,
    /** HTTP status, absent for network errors and timeouts. */
    readonly status?: number,
    /** The server's snake_case error code, when it sent one. */
    readonly code?: string,
    /** Absolute URL where the problem can be fixed, when the server named one (docs/sdk-transport.md, "Responses"). */
    readonly url?: string,
  ) {
    super(message);
  }
}

/**
 * `lookupFunction(name)` found nothing: the server answered `{id: null}` (docs/api/functions.md,
 * "POST /api/sdk/functions/lookup").
 */
export class FunctionNotFoundError extends RepriseError {
  constructor(
    readonly functionName: string,
    /** Where functions are managed in the console. */
    readonly url: string,
  ) {
    super(`Function "${functionName}" not found. Create it at ${url}`);
  }
}

/**
 * The replay barrier timed out: some replayed traces were not confirmed persisted, so the run was NOT completed
 * (docs/sdk-transport.md, rule 11).
 */
export class ReplayBarrierTimeoutError extends RepriseError {
  constructor(
    readonly testRunId: string,
    /** Local trace ids that were not confirmed in time. */
    readonly pendingTraceIds: string[],
    timeoutMs: number,
  ) {
    super(
      `Replay ${testRunId}: ${pendingTraceIds.length} trace(s) were not confirmed persisted within ${timeoutMs} ms; ` +
        "the run was not completed.",
    );
  }
}
