import type { ApiClient } from "../http/api-client.js";

/** What the SDK knows about the sim plan right now. */
export type PlanState =
  | { kind: "pending" }
  | { kind: "ready"; contentOff: ReadonlySet<string> }
  | { kind: "unavailable" };

/** Timing of sim plan reads (docs/sdk-transport.md, "Sim plan"). */
export const SIM_PLAN_TIMEOUT_MS = 5_000;
export const SIM_PLAN_REFRESH_MS = 60_000;
export const SIM_PLAN_RETRY_MS = 10_000;

/** Key of a sim plan node: root trace function key + span name. */
export function nodeKey(traceFunctionKey: string, spanName: string): string {
  return `${traceFunctionKey}\u0000${spanName}`;
}

type FetchResult = { ok: true; contentOff: Set<string> } | { ok: false };

/**
 * Reads `GET /api/sdk/sim-plan` lazily: the first read starts on first use; later reads happen at most once a
 * minute after a success and ten seconds after a failure, in the background. A failed refresh keeps the last good
 * plan. 404 means an empty plan (docs/sdk-transport.md, "Sim plan").
 */
export class SimPlanSource {
  private current: PlanState = { kind: "pending" };
  private nextReadAt = 0;
  private inFlight: Promise<void> | undefined;
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly read: () => Promise<FetchResult>) {}

  /** Current state; starts a read when one is due. */
  state(): PlanState {
    if (this.inFlight === undefined && Date.now() >= this.nextReadAt) this.refresh();
    return this.current;
  }

  /** Resolves once no read is in flight. */
  async settled(): Promise<void> {
    while (this.inFlight !== undefined) await this.inFlight;
  }

  /** Calls `listener` each time a read finishes. */
  onSettled(listener: () => void): void {
    this.listeners.push(listener);
  }

  private refresh(): void {
    this.inFlight = this.read()
      .catch((): FetchResult => ({ ok: false }))
      .then((result) => {
        if (result.ok) this.current = { kind: "ready", contentOff: result.contentOff };
        else if (this.current.kind !== "ready") this.current = { kind: "unavailable" };
        this.nextReadAt = Date.now() + (result.ok ? SIM_PLAN_REFRESH_MS : SIM_PLAN_RETRY_MS);
        this.inFlight = undefined;
        for (const listener of this.listeners) listener();
      });
  }
}

/** Reads the sim plan with a 5 s timeout and `Connection: close`. */
export async function fetchSimPlan(api: ApiClient): Promise<FetchResult> {
  const answer = await api.tryCall("GET", "/sim-plan", undefined, {
    timeoutMs: SIM_PLAN_TIMEOUT_MS,
    headers: { Connection: "close" },
  });
  if (answer.kind === "error") return answer.error.status === 404 ? { ok: true, contentOff: new Set() } : { ok: false };
  const nodes = (answer.body as { nodes?: unknown }).nodes;
  if (!Array.isArray(nodes)) return { ok: false }; // a body without `nodes` is unreadable
  const contentOff = new Set<string>();
  for (const node of nodes as Array<Record<string, unknown>>) {
    if (node === null || typeof node !== "object") continue;
    const { traceFunctionKey, name, captureContent } = node;
    if (typeof traceFunctionKey === "string" && typeof name === "string" && captureContent === false) {
      contentOff.add(nodeKey(traceFunctionKey, name));
    }
  }
  return { ok: true, contentOff };
}
