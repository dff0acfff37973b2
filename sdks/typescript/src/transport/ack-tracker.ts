import type { CarrierInfo } from "./types.js";

/** Local acknowledgment state of one watched trace. */
export interface AckState {
  /** Unique source span ids whose carriers the server acknowledged. */
  spanIds: Set<string>;
  completionAcked: boolean;
  serverTraceId?: string;
}

/**
 * Records which carriers of watched traces the server acknowledged. The OTLP endpoint answers only after every
 * accepted carrier persisted, so an acknowledgment is the replay barrier's proof (docs/sdk-transport.md, rule 11).
 * Only watched traces are recorded, so ordinary traffic costs nothing here.
 */
export class AckTracker {
  private readonly watched = new Map<string, AckState>();

  /** Starts recording acknowledgments for a trace id. */
  watch(traceId: string): void {
    if (!this.watched.has(traceId)) this.watched.set(traceId, { spanIds: new Set(), completionAcked: false });
  }

  /** Stops recording a trace id and frees its state. */
  unwatch(traceId: string): void {
    this.watched.delete(traceId);
  }

  /** Current state of a watched trace. */
  get(traceId: string): AckState | undefined {
    return this.watched.get(traceId);
  }

  /** Records acknowledged carriers and the server's `traceIds` map. */
  record(carriers: CarrierInfo[], serverTraceIds: Record<string, string> | undefined): void {
    if (this.watched.size === 0) return;
    for (const carrier of carriers) {
      const state = this.watched.get(carrier.traceId);
      if (!state) continue;
      if (carrier.operation === "external_trace") state.completionAcked = true;
      else if (carrier.spanId !== undefined) state.spanIds.add(carrier.spanId);
      const serverId = serverTraceIds?.[carrier.traceId];
      if (serverId !== undefined) state.serverTraceId = serverId;
    }
  }
}
