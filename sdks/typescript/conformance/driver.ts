// The TypeScript SDK's conformance driver: JSON lines on stdin/stdout (sdks/conformance/PROTOCOL.md).
// Run from sdks/typescript with `node --import tsx conformance/driver.ts`; it uses the SDK's source.
import readline from "node:readline";
import {
  FunctionNotFoundError,
  Reprise,
  RepriseApiError,
  RepriseConfigError,
  ReplayBarrierTimeoutError,
  flushTraces,
} from "../src/index.js";
import { applyBreak } from "./breaks.js";
import { expandValues, runTree, tracedTree, type TreeSpan } from "./tree.js";

let client: Reprise | undefined;
/** The one client, built from the environment alone on first use (PROTOCOL.md, Process). */
function reprise(): Reprise {
  if (client === undefined) {
    client = new Reprise();
    applyBreak(process.env.REPRISE_CONFORMANCE_BREAK, client);
  }
  return client;
}

type Args = Record<string, any>;
const commands: Record<string, (args: Args) => Promise<unknown>> = {
  async trace(args) {
    return runTree(reprise(), String(args.traceFunctionKey), args.tree as TreeSpan);
  },
  async flush(args) {
    reprise();
    return flushTraces(args.timeoutMs ?? 30_000);
  },
  async close() {
    await reprise().close();
    return null;
  },
  async updateTrace(args) {
    const trace = reprise().detachedTrace(String(args.traceId));
    if (args.setName !== undefined) await trace.setName(args.setName);
    if (args.mergeMetadata !== undefined) await trace.mergeMetadata(args.mergeMetadata);
    if (args.appendContexts !== undefined) await trace.addContext(...args.appendContexts);
    if (args.setSessionId !== undefined) await trace.setSessionId(args.setSessionId);
    return null;
  },
  async seedTrace(args) {
    const { traceId } = await reprise().seedTrace({
      traceFunctionKey: String(args.traceFunctionKey),
      input: args.input,
      output: args.output,
      name: args.name,
    });
    return { traceId };
  },
  async lookupFunction(args) {
    const found = await reprise().lookupFunction(String(args.name));
    return { id: found.id };
  },
  async functionTrace(args) {
    const fn = await reprise().lookupFunction(String(args.name));
    reprise().recordFunctionTrace(fn, { inputs: args.input, result: args.output });
    return null;
  },
  async replay(args) {
    const key = String(args.traceFunctionKey);
    const tree = args.tree as TreeSpan;
    // The function is already traced as `key`, so replay runs it as it is, its root receiving the recorded input.
    const result = await reprise().replay(key, tracedTree(reprise(), key, tree).fn, {
      limit: args.limit,
      traceIds: args.traceIds,
      datasetIds: args.datasetIds,
      name: args.name,
      barrierTimeoutMs: args.barrierTimeoutMs,
    });
    return {
      testRunId: result.testRunId,
      items: result.items.map((item) => ({
        originalTraceId: item.originalTraceId,
        traceId: item.serverTraceId ?? item.replayTraceId,
        ...(item.error !== undefined ? { error: item.error } : {}),
        output: item.output,
        outline: item.outline,
      })),
    };
  },
  async sleep(args) {
    await new Promise((resolve) => setTimeout(resolve, Number(args.ms)));
    return null;
  },
};

function toError(error: unknown): Record<string, unknown> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof FunctionNotFoundError) return { type: "function_not_found", message };
  if (error instanceof ReplayBarrierTimeoutError) return { type: "replay_barrier_timeout", message, pendingTraceIds: error.pendingTraceIds };
  if (error instanceof RepriseApiError) return { type: "api_error", message, status: error.status };
  if (error instanceof RepriseConfigError) return { type: "config_error", message };
  return { type: "other", message };
}

// Answers are written in request order even when commands run concurrently.
let chain = Promise.resolve();
const lines = readline.createInterface({ input: process.stdin });
// End of stdin: answer what is running, then exit without flushing (PROTOCOL.md, Process).
lines.on("close", () => void chain.then(() => process.exit(0)));
lines.on("line", (line) => {
  if (line.trim() === "") return;
  const request = JSON.parse(line) as Args;
  const handler = commands[String(request.cmd)];
  const running = handler
    ? handler(expandValues(request) as Args).then(
        (result) => ({ id: request.id, ok: true, result: result ?? null }),
        (error: unknown) => ({ id: request.id, ok: false, error: toError(error) }),
      )
    : Promise.resolve({ id: request.id, ok: false, error: { type: "other", message: `unknown command ${request.cmd}` } });
  chain = chain.then(async () => {
    process.stdout.write(`${JSON.stringify(await running)}\n`);
  });
});
