import { toJsonCompatible } from "../encoding/value-codec.js";
import type { CarrierRequest } from "../transport/transport.js";
import { SDK_VERSION } from "../version.js";

/** Origin tag of function-execution traces from this SDK (`source` of the payload). */
const FUNCTION_TRACE_SOURCE = "typescript-sdk";

/** One execution of a function found with `lookupFunction`, as `recordFunctionTrace` takes it. */
export interface FunctionExecution {
  /** Named arguments of the call; left out when empty. */
  inputs?: Record<string, unknown>;
  /** What the function returned: a string, or any JSON value (sent as its JSON text). */
  result: unknown;
  /** Collector snapshot of the call (model, tokens…), optional. */
  rawCollector?: unknown;
  /** When the execution started and ended; default now. */
  startedAt?: Date;
  endedAt?: Date;
}

/**
 * Builds the `internal_trace` carrier of a function execution: the body of `POST /api/sdk/functions/{id}/traces`
 * plus `functionId` (docs/api/ingestion.md, "OTLP").
 */
export function buildFunctionTraceCarrier(functionId: string, functionName: string | undefined, execution: FunctionExecution): CarrierRequest {
  const payload: Record<string, unknown> = {
    functionId,
    result: typeof execution.result === "string" ? execution.result : JSON.stringify(toJsonCompatible(execution.result) ?? null),
    source: FUNCTION_TRACE_SOURCE,
    sdkVersion: SDK_VERSION,
  };
  if (execution.inputs && Object.keys(execution.inputs).length > 0) payload.inputs = toJsonCompatible(execution.inputs);
  if (execution.rawCollector !== undefined) payload.rawCollector = toJsonCompatible(execution.rawCollector);
  const endedAt = execution.endedAt ?? new Date();
  return {
    operation: "internal_trace",
    payload,
    traceId: functionId,
    name: functionName || "reprise.internal_trace",
    startTime: execution.startedAt ?? endedAt,
    endTime: endedAt,
    isError: false,
  };
}
