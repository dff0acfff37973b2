import { randomUUID } from "node:crypto";
import { encodeValue, type EncodedValue } from "../encoding/value-codec.js";
import type { Instrumentation, PayloadError, SpanType } from "./types.js";

/** Mutable state of one running span. */
export class SpanState {
  readonly id = randomUUID();
  /** Wrappers start now; framework integrations may pass the time the framework reported. */
  startedAt = new Date();
  endedAt: Date | undefined;
  input: EncodedValue | undefined;
  output: EncodedValue | undefined;
  error: string | undefined;
  prompt: string | undefined;
  readonly contexts: unknown[] = [];
  readonly errors: PayloadError[] = [];
  /** True when a replay served the recorded output instead of running the function. */
  mocked = false;

  constructor(
    /** Set once for wrappers; a framework integration may settle it when the step ends (a handoff's target). */
    public name: string,
    readonly type: SpanType,
    readonly instrumentation: Instrumentation,
    readonly parentId: string | undefined,
    readonly functionName: string | undefined,
  ) {}

  /** True for spans recorded by a framework integration: the sim plan does not govern them. */
  get frameworkRecorded(): boolean {
    return this.instrumentation !== "span" && this.instrumentation !== "trace";
  }

  /** True for the trace's root span (no parent). */
  get isRoot(): boolean {
    return this.parentId === undefined;
  }

  /** Records the span input: the argument array of a wrapped call, or what a framework passed to a step. */
  setInput(args: unknown): void {
    this.input = encodeValue(args);
    this.noteLoss("input", this.input);
  }

  /** Records the return value (or what a generator produced) as the span output. */
  setOutput(value: unknown): void {
    this.output = encodeValue(value);
    this.noteLoss("output", this.output);
  }

  /** Records an error the wrapped code threw. */
  setError(error: unknown): void {
    this.error = error instanceof Error ? error.message || error.name : String(error);
  }

  private noteLoss(field: string, value: EncodedValue): void {
    if (value.lost.length === 0) return;
    this.errors.push({
      source: "sdk",
      step: "serialization_degraded",
      error: `non-replayable: could not faithfully capture ${field}: ${value.lost.join(", ")}`,
    });
  }
}
