import type { CarrierRequest } from "../transport/transport.js";
import { nodeKey, type PlanState, type SimPlanSource } from "./sim-plan-source.js";

/** A finished span on its way to the transport. */
export interface SpanSubmission {
  carrier: CarrierRequest;
  /** Root trace function key (sim plan matching key). */
  traceFunctionKey: string;
  spanName: string;
  isRoot: boolean;
  hasError: boolean;
  /** Recorded by a framework integration: exempt from the sim plan (docs/api/sim-plan.md). */
  frameworkRecorded?: boolean;
}

type Held = { kind: "span"; submission: SpanSubmission; sent: (sent: boolean) => void } | { kind: "release"; run: () => void };

/** Content fields withheld from a content-off span (docs/sdk-transport.md, "Sim plan"). */
const CONTENT_FIELDS = ["input", "input_meta", "output", "output_meta", "input_serialized", "output_serialized", "prompt"];
/** Items held while the first plan read is pending (docs/sdk-transport.md, "Sim plan"). */
const MAX_HELD = 1_000;

/**
 * Applies the sim plan to spans before they reach the transport, in submission order. While the first read is
 * pending, spans and the completions behind them are held (up to 1,000 items); completions therefore always see
 * the final count of spans actually sent.
 */
export class SimPlanGate {
  private held: Held[] = [];
  private forcedUnavailable = false;

  constructor(
    private readonly plan: SimPlanSource | undefined,
    private readonly deliver: (carrier: CarrierRequest) => boolean,
  ) {
    plan?.onSettled(() => {
      this.forcedUnavailable = false;
      this.release();
    });
  }

  /** Sends, strips or skips a span; `sent` learns whether a carrier was submitted. */
  submitSpan(submission: SpanSubmission, sent: (sent: boolean) => void): void {
    const state = this.currentState();
    if (state.kind === "pending" || this.held.length > 0) {
      this.hold({ kind: "span", submission, sent });
      return;
    }
    sent(this.process(submission, state));
  }

  /** Runs `run` after every span submitted before it has been decided. */
  afterPending(run: () => void): void {
    if (this.held.length > 0) this.hold({ kind: "release", run });
    else run();
  }

  /** Resolves when nothing is held any more. */
  async drain(): Promise<void> {
    if (this.held.length === 0) return;
    await this.plan?.settled();
    this.release();
  }

  private currentState(): PlanState {
    if (this.plan === undefined) return { kind: "ready", contentOff: new Set() };
    const state = this.plan.state();
    return this.forcedUnavailable && state.kind === "pending" ? { kind: "unavailable" } : state;
  }

  private hold(item: Held): void {
    this.held.push(item);
    if (this.held.length > MAX_HELD) {
      // Memory stays bounded: decide everything held as if the plan were unavailable.
      this.forcedUnavailable = true;
      this.release();
    }
  }

  private release(): void {
    const state = this.currentState();
    if (state.kind === "pending") return;
    const items = this.held;
    this.held = [];
    for (const item of items) {
      if (item.kind === "span") item.sent(this.process(item.submission, state));
      else item.run();
    }
  }

  private process(submission: SpanSubmission, state: PlanState): boolean {
    const { carrier } = submission;
    if (submission.frameworkRecorded) return this.deliver(carrier);
    if (state.kind === "ready" && state.contentOff.has(nodeKey(submission.traceFunctionKey, submission.spanName))) {
      // Sent without content and flagged, never withheld, so the server can count the node (docs/sdk-transport.md,
      // "Sim plan").
      stripContent(carrier.payload);
    } else if (state.kind === "unavailable" && !submission.isRoot) {
      stripContent(carrier.payload);
    }
    return this.deliver(carrier);
  }
}

function stripContent(payload: Record<string, unknown>): void {
  const data = (payload.rawSpan as { span_data?: Record<string, unknown> } | undefined)?.span_data;
  if (!data) return;
  for (const field of CONTENT_FIELDS) delete data[field];
  data.content_off_by_simulation_plan = true;
}
