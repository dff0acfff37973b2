import type { ResolvedConfig } from "./config.js";
import type { ApiClient } from "./http/api-client.js";
import type { RepriseLogger } from "./logger.js";
import { SimPlanGate, type SpanSubmission } from "./sim-plan/gate.js";
import { fetchSimPlan, SimPlanSource } from "./sim-plan/sim-plan-source.js";
import { registerLive, unregisterLive, type Flushable } from "./transport/registry.js";
import { type CarrierRequest, Transport, withTimeout } from "./transport/transport.js";

/**
 * A client's whole delivery path: sim plan gate, then transport. Registered as live on first use so global
 * flushes and the replay barrier reach it; flushed once more when the process is about to exit.
 */
export class Pipeline implements Flushable {
  readonly transport: Transport;
  private readonly gate: SimPlanGate;
  private live = false;
  private readonly onBeforeExit = () => {
    if (this.transport.queueLength > 0) void this.flush(30_000);
  };

  constructor(config: ResolvedConfig, logger: RepriseLogger, api: ApiClient) {
    this.transport = new Transport(config, logger);
    const plan = config.simPlanEnabled ? new SimPlanSource(() => fetchSimPlan(api)) : undefined;
    this.gate = new SimPlanGate(plan, (carrier) => this.transport.submit(carrier));
  }

  /** Submits a finished span through the sim plan; `sent` learns whether a carrier went out. */
  submitSpan(submission: SpanSubmission, sent: (sent: boolean) => void): void {
    this.goLive();
    this.gate.submitSpan(submission, sent);
  }

  /** Submits a carrier built only once every span submitted before it was decided (trace completions). */
  submitAfterSpans(build: () => CarrierRequest | undefined, done: (sent: boolean) => void): void {
    this.goLive();
    this.gate.afterPending(() => {
      const carrier = build();
      done(carrier !== undefined && this.transport.submit(carrier));
    });
  }

  /** Submits a carrier that the sim plan does not concern (function-execution traces). */
  submitDirect(carrier: CarrierRequest): boolean {
    this.goLive();
    return this.transport.submit(carrier);
  }

  /** Waits for held spans, then exports everything queued. False on failure or timeout. */
  async flush(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const drained = await withTimeout(this.gate.drain().then(() => true), timeoutMs, false);
    if (!drained) return false;
    return this.transport.flush(Math.max(1, deadline - Date.now()));
  }

  /** Flushes, shuts the transport down and unregisters. */
  async close(timeoutMs: number): Promise<boolean> {
    await withTimeout(this.gate.drain().then(() => true), timeoutMs, false);
    const flushed = await this.transport.close(timeoutMs);
    unregisterLive(this);
    process.off("beforeExit", this.onBeforeExit);
    this.live = false;
    return flushed;
  }

  private goLive(): void {
    if (this.live || this.transport.isClosed) return;
    this.live = true;
    registerLive(this);
    process.on("beforeExit", this.onBeforeExit);
  }
}
