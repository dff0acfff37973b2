import { randomUUID } from "node:crypto";
import type { IngestionType, ReplayAttribution } from "./types.js";

/** What the trace completion carried, once it was handed to the transport. */
export interface CompletionInfo {
  traceId: string;
  expectedSpanCount: number;
  dropped: boolean;
  sent: boolean;
}

/**
 * Mutable state of one trace: its metadata, how many spans are still running, and how many span carriers were
 * actually submitted (the completion's `expectedSpanCount`).
 */
export class TraceState {
  readonly id: string;
  readonly startedAt = new Date();
  endedAt: Date | undefined;
  name: string | undefined;
  sessionId: string | undefined;
  readonly metadata: Record<string, unknown> = {};
  readonly contexts: unknown[] = [];
  dropped = false;
  openSpans = 0;
  rootEnded = false;
  sentSpans = 0;
  completionStarted = false;
  /** Resolves when the completion was handed to the transport (or skipped). */
  readonly completion: Promise<CompletionInfo>;
  resolveCompletion!: (info: CompletionInfo) => void;

  constructor(
    readonly traceFunctionKey: string,
    readonly ingestionType: IngestionType,
    readonly replay: ReplayAttribution | undefined,
    id?: string,
  ) {
    this.id = id ?? randomUUID();
    this.completion = new Promise((resolve) => (this.resolveCompletion = resolve));
  }

  /** True once the root ended and no span of the trace is still running: time to send the completion. */
  get readyToComplete(): boolean {
    return this.rootEnded && this.openSpans === 0 && !this.completionStarted;
  }
}
