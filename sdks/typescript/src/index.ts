/**
 * @reprise/sdk: record executions of LLM and agent applications, replay them and judge them with Reprise.
 * @packageDocumentation
 */
export { Reprise } from "./client.js";
export type { SeedCase, FunctionInfo } from "./client.js";
export { resolveConfig, DEFAULT_SERVICE_URL } from "./config.js";
export type { RepriseOptions, ResolvedConfig, TransportTuning, DeliveryMode, ConfigWarning } from "./config.js";
export {
  RepriseError,
  RepriseApiError,
  RepriseConfigError,
  FunctionNotFoundError,
  ReplayBarrierTimeoutError,
} from "./errors.js";
export type { RepriseLogger } from "./logger.js";
export { CurrentTrace, CurrentSpan, getCurrentTrace, getCurrentSpan } from "./tracing/handles.js";
export { DetachedTrace } from "./tracing/detached-trace.js";
export type { FunctionExecution } from "./tracing/function-trace.js";
export type { SpanType, SpanOptions, TraceOptions } from "./tracing/types.js";
export type {
  ReplayOptions,
  ReplayResult,
  ReplayItemResult,
  TraceOutline,
  OutlineSpan,
  TokenUsage,
} from "./replay/types.js";
export { encodeValue, decodeValue } from "./encoding/value-codec.js";
export type { EncodedValue, ValueMeta } from "./encoding/value-codec.js";
export { SDK_VERSION } from "./version.js";
export { flushAllLive as flushTraces } from "./transport/registry.js";
