import { describe, expect, it } from "vitest";
import { Recorder } from "../recorder/recorder.ts";
import type { Carrier } from "../recorder/types.ts";
import { checkRequestInvariants } from "./checks.ts";
import { API_KEY, KEY } from "./constants.ts";
import { Driver } from "./driver.ts";
import { discoverSdks, type SdkManifest } from "./sdks.ts";
import type { TreeSpan } from "./tree-span.ts";

export { API_KEY, KEY } from "./constants.ts";
export type { TreeSpan } from "./tree-span.ts";

/** What a scenario works with: the recorder, the driver of the SDK under test, and shortcuts. */
export interface Ctx {
  sdk: SdkManifest;
  recorder: Recorder;
  driver: Driver;
  /** Runs the `trace` command. */
  trace(tree: TreeSpan, traceFunctionKey?: string): Promise<{ traceId: string }>;
  /** Runs the `flush` command. */
  flush(timeoutMs?: number): Promise<boolean>;
  /** Span carriers received (optionally of one trace). */
  spans(traceId?: string): Carrier[];
  /** Completion carriers received (optionally of one trace). */
  completions(traceId?: string): Carrier[];
}

/** One rule checked against every SDK. */
export interface Scenario {
  name: string;
  /** The rule it checks, as docs/sdk-transport.md numbers it. */
  rule: string;
  /**
   * The break the TypeScript driver applies when proving this scenario fails (`REPRISE_CONFORMANCE_BREAK`,
   * sdks/typescript/conformance/breaks.ts).
   */
  breaks: string;
  /** Extra driver environment (REPRISE_* settings, Collector mode). */
  env?: (recorder: Recorder) => Record<string, string>;
  timeoutMs?: number;
  /**
   * The scenario spends its time waiting on the SDK's own clock (a 30 s request deadline), not working: it
   * runs for every SDK at once instead of once per SDK in turn, which took two minutes of each `npm test`.
   */
  waitsOnClock?: boolean;
  /** Prepares the recorder before the driver starts. */
  setup?: (recorder: Recorder) => void;
  run(ctx: Ctx): Promise<void>;
}

const PROVE = process.env.REPRISE_CONFORMANCE_PROVE_BREAKS === "1";
const skipped = new Set<string>();

/**
 * Registers scenarios under one `describe` per SDK found through the manifests, but those that wait on the
 * SDK's clock under one `describe` of their own where every SDK runs at once. An SDK whose toolchain is
 * missing is skipped with a line saying what to install. With `REPRISE_CONFORMANCE_PROVE_BREAKS=1` each
 * scenario instead runs against its deliberately broken driver and passes only when the scenario's checks fail.
 */
export function conformance(area: string, scenarios: Scenario[]): void {
  const runnable: SdkManifest[] = [];
  for (const sdk of discoverSdks()) {
    if (PROVE && !sdk.breakEnv) continue;
    if (sdk.missing.length > 0) {
      if (!skipped.has(sdk.name)) {
        skipped.add(sdk.name);
        console.log(`(skipping the ${sdk.title} conformance scenarios: ${sdk.missing.join(", ")} not found; install with \`${sdk.install ?? "its toolchain"}\`)`);
      }
      describe.skip(`${sdk.title}: ${area}`, () => scenarios.forEach((s) => it(s.name, () => {})));
      continue;
    }
    runnable.push(sdk);
    describe(`${sdk.title}${PROVE ? " (deliberately broken driver)" : ""}: ${area}`, () => {
      for (const scenario of scenarios) if (!scenario.waitsOnClock) register(sdk, scenario, "");
    });
  }
  const waiting = scenarios.filter((s) => s.waitsOnClock);
  if (waiting.length === 0 || runnable.length === 0) return;
  describe.concurrent(`${area}, every SDK at once${PROVE ? " (deliberately broken drivers)" : ""}`, () => {
    for (const scenario of waiting) for (const sdk of runnable) register(sdk, scenario, `${sdk.title}: `);
  });
}

/** One scenario's test for one SDK (skipped, saying why, while the SDK's manifest marks it pending). */
function register(sdk: SdkManifest, scenario: Scenario, prefix: string): void {
  const timeout = (scenario.timeoutMs ?? 30_000) + 10_000;
  const pending = PROVE ? undefined : sdk.conformancePending?.find((p) => scenario.name.includes(p.scenario));
  if (pending) {
    console.log(`(${sdk.title}: "${scenario.name}" is pending: ${pending.reason})`);
    it.skip(`${prefix}${scenario.name} [${scenario.rule}] (pending: ${pending.reason})`, () => {});
    return;
  }
  it(`${prefix}${scenario.name} [${scenario.rule}]`, () => (PROVE ? proveBroken(sdk, scenario) : runScenario(sdk, scenario)), timeout);
}

/** Runs one scenario against a fresh recorder and driver process. */
export async function runScenario(sdk: SdkManifest, scenario: Scenario, extraEnv: Record<string, string> = {}): Promise<void> {
  const recorder = await new Recorder().start();
  scenario.setup?.(recorder);
  const env: Record<string, string> = { REPRISE_API_KEY: API_KEY, REPRISE_URL: recorder.url, ...scenario.env?.(recorder), ...extraEnv };
  const driver = new Driver(sdk, env);
  const ctx: Ctx = {
    sdk,
    recorder,
    driver,
    trace: (tree, key = KEY) => driver.call("trace", { traceFunctionKey: key, tree }),
    flush: (timeoutMs) => driver.call("flush", timeoutMs === undefined ? {} : { timeoutMs }),
    spans: (traceId) => recorder.carriers((c) => c.operation === "external_span" && (traceId === undefined || c.payload.sourceTraceId === traceId)),
    completions: (traceId) => recorder.carriers((c) => c.operation === "external_trace" && (traceId === undefined || c.payload.id === traceId)),
  };
  try {
    await scenario.run(ctx);
    checkRequestInvariants(ctx, { compression: env.REPRISE_DISABLE_COMPRESSION === undefined });
    expect(driver.strayOutput, "driver stdout holds only answers").toEqual([]);
  } catch (error) {
    if (error instanceof Error) error.message += `\n--- driver stderr ---\n${driver.stderr.slice(-3000)}`;
    throw error;
  } finally {
    await driver.stop();
    await recorder.stop();
  }
}

async function proveBroken(sdk: SdkManifest, scenario: Scenario): Promise<void> {
  try {
    await runScenario(sdk, scenario, { [sdk.breakEnv as string]: scenario.breaks });
  } catch (error) {
    if (isCheckFailure(error)) {
      console.log(`${scenario.name}\n  broken with ${scenario.breaks}, it fails as it should: ${String((error as Error).message).split("\n")[0]}`);
      return;
    }
    throw new Error(`the broken driver (${scenario.breaks}) made the scenario error instead of failing a check: ${String(error)}`);
  }
  throw new Error(`the scenario passed against the driver broken with ${scenario.breaks}`);
}

/** A failed `expect`, or the recorder never seeing what a scenario waited for. */
function isCheckFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === "AssertionError" || "matcherResult" in error || error.message.startsWith("recorder:");
}
