// Deliberately broken behaviours, one per conformance scenario, applied when REPRISE_CONFORMANCE_BREAK names
// one. They exist only to prove that each scenario fails when its rule is broken (sdks/conformance/README.md).
// They patch the SDK from outside, at run time, in this driver process only; the SDK itself has no such switch.
import { DetachedTrace, Reprise } from "../src/index.js";
import { gunzipSync, gzipSync } from "node:zlib";
import { RepriseSpanExporter } from "../src/transport/exporter.js";
import { ApiClient } from "../src/http/api-client.js";
import { resetWarnOnceForTests } from "../src/logger.js";
import { Pipeline } from "../src/pipeline.js";
import { SimPlanGate } from "../src/sim-plan/gate.js";
import { nodeKey, SimPlanSource } from "../src/sim-plan/sim-plan-source.js";
import { TraceState } from "../src/tracing/trace-state.js";
import { AckTracker } from "../src/transport/ack-tracker.js";
import { CarrierQueueProcessor } from "../src/transport/processor.js";
import { ReplayApi } from "../src/replay/replay-api.js";
import { Throttle } from "../src/transport/throttle.js";
import { Transport, type CarrierRequest } from "../src/transport/transport.js";

type Break = (client: Reprise) => void;
type Any = any;

/** Internals of the client the breaks reach into. */
const internals = (client: Reprise) => client as unknown as { config: Any; pipeline: Any; api: Any; recorder: Any; logger: Any };

/** Rewrites every carrier before it is queued. */
function onSubmit(change: (carrier: CarrierRequest) => void): void {
  const submit = Transport.prototype.submit;
  Transport.prototype.submit = function (this: Transport, carrier: CarrierRequest) {
    change(carrier);
    return submit.call(this, carrier);
  };
}

/** Rewrites every prepared request body (`{body, gzipped}`) just before it is sent. */
function onBody(change: (prepared: { body: Uint8Array; gzipped: boolean }) => { body: Uint8Array; gzipped: boolean }): void {
  const proto = RepriseSpanExporter.prototype as Any;
  const attempt = proto.attempt;
  proto.attempt = function (this: unknown, prepared: { body: Uint8Array; gzipped: boolean }, timeoutMs: number) {
    return attempt.call(this, change(prepared), timeoutMs);
  };
}

/** Rewrites the classified outcome of every OTLP attempt. */
function onOutcome(change: (result: Any) => Any | Promise<Any>): void {
  const proto = RepriseSpanExporter.prototype as Any;
  const attempt = proto.attempt;
  proto.attempt = async function (this: unknown, prepared: unknown, timeoutMs: number) {
    return change(await attempt.call(this, prepared, timeoutMs));
  };
}

/** Replaces the trimming budget the exporter asks for. */
function onTrimBudget(change: (budget: number) => number): void {
  const proto = RepriseSpanExporter.prototype as Any;
  const trim = proto.trim;
  proto.trim = function (this: unknown, prepared: unknown, budget: number) {
    return trim.call(this, prepared, change(budget));
  };
}

/** Rewrites the options of blocking API calls by path. */
function onApiCall(change: (path: string, options: Any) => Any): void {
  const tryCall = ApiClient.prototype.tryCall;
  ApiClient.prototype.tryCall = function (this: ApiClient, method: Any, path: string, body?: unknown, options: Any = {}) {
    return tryCall.call(this, method, path, body, change(path, options));
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const BREAKS: Record<string, Break> = {
  // Rule 1: the completion goes out as if it were a span.
  "completion-as-span": () => onSubmit((c) => void (c.operation = c.operation === "external_trace" ? "external_span" : c.operation)),
  // Rule 2: Collector mode speaks JSON / forgets /v1/traces / also sends directly.
  "collector-json": (client) => void (internals(client).config.mode.encoding = "json"),
  "collector-no-append": (client) => {
    const mode = internals(client).config.mode;
    mode.url = mode.url.replace(/\/v1\/traces$/, "/");
  },
  "collector-both": (client) => {
    const { config, logger } = internals(client);
    const direct = new Transport({ ...config, mode: { kind: "direct", url: `${config.serviceUrl}/api/sdk/otel/v1/traces`, encoding: "json" } }, logger);
    const submit = Transport.prototype.submit;
    const flush = Transport.prototype.flush;
    Transport.prototype.submit = function (this: Transport, carrier: CarrierRequest) {
      if (this !== direct) submit.call(direct, structuredClone(carrier));
      return submit.call(this, carrier);
    };
    Transport.prototype.flush = async function (this: Transport, timeoutMs: number) {
      if (this !== direct) await flush.call(direct, timeoutMs);
      return flush.call(this, timeoutMs);
    };
  },
  // Rule 3: no carrier count bound / a byte target 1.5 times too high / half of it / 4 MB.
  "pack-count": (client) => void (internals(client).config.tuning.maxCarriersPerRequest = 1_000_000),
  "pack-size-overflow": (client) => void (internals(client).config.maxRequestBytes *= 1.5),
  "pack-size-estimate": (client) => void (internals(client).config.maxRequestBytes /= 2),
  "wire-target-4m": (client) => void (internals(client).config.maxRequestBytes = 4_000_000),
  // Rule 4: gzip from 8,000 bytes / gzip that does not shrink (stored blocks) / ignore the switch.
  "gzip-threshold": () =>
    onBody((p) => (!p.gzipped && p.body.byteLength >= 8_000 ? { body: gzipSync(p.body), gzipped: true } : p)),
  "gzip-stored": () => onBody((p) => (p.gzipped ? { body: gzipSync(gunzipSync(p.body), { level: 0 }), gzipped: true } : p)),
  "compression-not-disabled": (client) => void (internals(client).config.compression = true),
  // Rule 8: no retries / retry everything / ignore Retry-After / wait it out past the budget / no backoff /
  // a throttle per request instead of one per transport.
  "no-retry": (client) => void (internals(client).config.tuning.maxAttempts = 1),
  "retry-everything": () => onOutcome((r) => (r.kind === "rejected" ? { ...r, kind: "retryable" } : r)),
  "ignore-retry-after": () => onOutcome((r) => ({ ...r, retryAfterMs: undefined })),
  "wait-past-budget": () =>
    onOutcome(async (r) => {
      if (r.retryAfterMs === undefined) return r;
      await sleep(r.retryAfterMs);
      return { ...r, retryAfterMs: undefined };
    }),
  "no-backoff": (client) => void (internals(client).config.tuning.backoffBaseMillis = 0),
  "no-shared-throttle": () => {
    Throttle.prototype.hold = () => {};
  },
  // Deadlines and flush: no 30 s request deadline / flush waits past its timeout / flush always reports true.
  "no-request-deadline": (client) => {
    internals(client).config.tuning.requestTimeoutMillis = 120_000;
    internals(client).config.tuning.exportTimeoutMillis = 120_000;
  },
  "flush-ignores-timeout": () => {
    const flush = Transport.prototype.flush;
    Transport.prototype.flush = function (this: Transport) {
      return flush.call(this, 120_000);
    };
  },
  "flush-always-true": () => {
    const flush = Transport.prototype.flush;
    Transport.prototype.flush = async function (this: Transport, timeoutMs: number) {
      await flush.call(this, timeoutMs);
      return true;
    };
  },
  // Rules 5-7: always trim / a per-span budget of 8,000,000 / measure the payload unescaped / a 3,000,000 fallback
  // budget / warn on every trim.
  "trim-oversized-always": () => {
    const proto = RepriseSpanExporter.prototype as Any;
    proto.planOversized = async function (this: Any, original: Any) {
      const trimmed = this.trim(original, 2_800_000);
      return { carriers: [trimmed], raw: this.deps.codec.assemble([trimmed.bytes]) };
    };
  },
  "per-span-budget-8m": () => onTrimBudget((budget) => (budget === 7_800_000 ? 8_000_000 : budget)),
  "budget-unescaped": () => {
    const proto = RepriseSpanExporter.prototype as Any;
    proto.planOversized = async function (this: Any, original: Any) {
      const { codec, config } = this.deps;
      let current = original;
      if (Buffer.byteLength(String(current.span.attributes["reprise.payload"])) > 7_800_000) current = this.trim(current, 7_800_000);
      const raw = codec.assemble([current.bytes]);
      const body = gzipSync(raw);
      if (raw.byteLength <= 8_000_000 && body.byteLength <= config.maxRequestBytes) return { carriers: [current], body: { body, gzipped: true } };
      current = this.trim(current, 2_800_000);
      return { carriers: [current], raw: codec.assemble([current.bytes]) };
    };
  },
  "fallback-budget-3m": () => onTrimBudget((budget) => (budget === 2_800_000 ? 3_000_000 : budget)),
  "warn-every-trim": () => {
    const proto = RepriseSpanExporter.prototype as Any;
    const trim = proto.trim;
    proto.trim = function (this: unknown, prepared: unknown, budget: number) {
      resetWarnOnceForTests();
      return trim.call(this, prepared, budget);
    };
  },
  // Completion: a count one short / completing when the root returns, without waiting for its children.
  "expected-count-off-by-one": () =>
    onSubmit((c) => {
      if (typeof c.payload.expectedSpanCount === "number") c.payload.expectedSpanCount -= 1;
    }),
  "complete-early": () =>
    Object.defineProperty(TraceState.prototype, "readyToComplete", {
      get(this: TraceState) {
        return this.rootEnded && !this.completionStarted;
      },
    }),
  // Rule 10: close flushes but keeps sending.
  "submit-after-close": () => {
    Pipeline.prototype.close = function (this: Any, timeoutMs: number) {
      return this.transport.flush(timeoutMs);
    };
  },
  // Queue: a full queue drops the newest carriers instead of the oldest.
  "drop-newest": () => {
    const proto = CarrierQueueProcessor.prototype as Any;
    const onEnd = proto.onEnd;
    proto.onEnd = function (this: Any, span: unknown) {
      if (this.queue.isFull) return;
      onEnd.call(this, span);
    };
  },
  // Sim plan: read without Connection: close / on every span / with a 30 s timeout / content-off children withheld.
  "sim-plan-keepalive": () => onApiCall((path, options) => (path === "/sim-plan" ? { ...options, headers: {} } : options)),
  "sim-plan-every-read": () => {
    const state = SimPlanSource.prototype.state;
    SimPlanSource.prototype.state = function (this: Any) {
      this.nextReadAt = 0;
      return state.call(this);
    };
  },
  "sim-plan-timeout-long": () => onApiCall((path, options) => (path === "/sim-plan" ? { ...options, timeoutMs: 30_000 } : options)),
  "content-off-withheld": () => {
    const proto = SimPlanGate.prototype as Any;
    const process = proto.process;
    proto.process = function (this: Any, submission: Any, state: Any) {
      const off = state.kind === "ready" && state.contentOff.has(nodeKey(submission.traceFunctionKey, submission.spanName));
      if (off && !submission.isRoot && !submission.hasError) return false;
      return process.call(this, submission, state);
    };
  },
  // Rule 11: replay/complete without waiting for persistence (no flush, every trace taken as confirmed).
  "barrier-skipped": () => {
    Pipeline.prototype.flush = async () => true;
    AckTracker.prototype.get = () => ({ completionAcked: true, spanIds: { size: Number.MAX_SAFE_INTEGER } }) as Any;
  },
  // Blocking calls: {id: null} taken as found / function traces posted to the REST route / PATCH errors swallowed.
  "lookup-null-ok": (client) => {
    internals(client).api.call = async () => ({ id: "found-anyway" });
  },
  "function-trace-rest": (client) => {
    client.recordFunctionTrace = (fn, execution) => {
      const id = typeof fn === "string" ? fn : fn.id;
      void internals(client).api.call("POST", `/functions/${id}/traces`, { result: execution.result, inputs: execution.inputs });
      return true;
    };
  },
  "patch-swallowed": () => {
    const proto = DetachedTrace.prototype as Any;
    const patch = proto.patch;
    proto.patch = function (this: unknown, body: unknown) {
      return patch.call(this, body).catch(() => undefined);
    };
  },
  // Replay: spans marked mock-on-replay run live (no recorded outputs are fetched).
  "no-mocking": () => {
    ReplayApi.prototype.spanTree = async () => undefined;
  },
};

/** Applies the named break to the freshly built client; an unknown name stops the driver. */
export function applyBreak(name: string | undefined, client: Reprise): void {
  if (name === undefined || name === "") return;
  const apply = BREAKS[name];
  if (!apply) {
    process.stderr.write(`unknown REPRISE_CONFORMANCE_BREAK ${name}\n`);
    process.exit(2);
  }
  apply(client);
}
