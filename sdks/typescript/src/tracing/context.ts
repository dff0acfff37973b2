import { AsyncLocalStorage } from "node:async_hooks";
import type { SpanState } from "./span-state.js";
import type { TraceState } from "./trace-state.js";
import type { ReplayAttribution } from "./types.js";

/** A trace the replay runner asks the next root to become. */
export interface PendingReplay {
  traceId: string;
  attribution: ReplayAttribution;
  consumed: boolean;
  onTrace(trace: TraceState): void;
}

/** What is active in the current asynchronous context. */
export interface Frame {
  trace?: TraceState;
  span?: SpanState;
  pendingReplay?: PendingReplay;
}

/** The SDK's own context, independent of any OpenTelemetry context of the host application. */
export const contextStorage = new AsyncLocalStorage<Frame>();

/** The active frame, if any. */
export function currentFrame(): Frame | undefined {
  return contextStorage.getStore();
}
