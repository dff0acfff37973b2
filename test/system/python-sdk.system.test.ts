// The Python SDK against a real Reprise: the package's quickstart (sdks/python/examples/quickstart.py) records one
// trace into the built server (`npm start`, shared by the system suites), and the trace reads back over REST as
// the quickstart promises.
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { runToEnd } from "./server-process.ts";

const root = path.resolve(__dirname, "..", "..");
const hasPython = spawnSync("sh", ["-c", "command -v python3"]).status === 0;

describe.runIf(hasPython)("the Python SDK against a real Reprise", () => {
  const { baseUrl, apiKey } = inject("reprise");
  const quickstartEnv = {
    ...process.env,
    PYTHONPATH: "sdks/python/src",
    REPRISE_API_KEY: apiKey,
    REPRISE_URL: baseUrl,
    REPRISE_EXAMPLE_TRACE_FUNCTION: "python-quickstart",
  };

  it("records the quickstart's trace (completed, 3 spans, tokens 12/3, model example-model) and replays it", async () => {
    const { code, output } = await runToEnd("python3", ["sdks/python/examples/quickstart.py"], {
      cwd: root,
      env: quickstartEnv,
    });
    expect(code, output).toBe(0);
    const lastLine = output.trim().split("\n").at(-1) ?? "";
    const { traceId } = JSON.parse(lastLine) as { traceId: string };
    expect(traceId).toMatch(/^[0-9a-f-]{36}$/);

    // The flush returned once the server acknowledged every carrier, so the trace is stored and complete.
    const res = await fetch(`${baseUrl}/api/sdk/traces/${traceId}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(200);
    const { trace } = (await res.json()) as { trace: Record<string, any> };
    expect(trace).toMatchObject({
      id: traceId,
      traceFunctionKey: "python-quickstart",
      status: "completed",
      spanCount: 3,
      expectedSpanCount: 3,
      model: "example-model",
    });
    expect(trace.tokens).toMatchObject({ input: 12, output: 3 });

    const span = await fetch(`${baseUrl}/api/sdk/traces/${traceId}/span?name=call-model`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    const { span: callModel } = (await span.json()) as { span: Record<string, any> };
    expect(callModel).toMatchObject({ name: "call-model", type: "llm" });
    expect(callModel.contexts).toEqual([{ model: "example-model", inputTokens: 12, outputTokens: 3 }]);

    // The same function replayed through the SDK's runner: the barrier confirms persistence before completing.
    const replayScript = [
      "import json, sys",
      "sys.path.insert(0, 'sdks/python/examples')",
      "import quickstart as q",
      "r = q.reprise.replay(q.TRACE_FUNCTION, q.answer, trace_ids=[sys.argv[1]], name='python system test')",
      "i = r.items[0]",
      "print(json.dumps({'testRunId': r.test_run_id, 'count': r.trace_count, 'error': i.error, 'traceId': i.server_trace_id, 'tokens': i.tokens, 'output': i.output['answer']}))",
    ].join("\n");
    const replayed = await runToEnd("python3", ["-c", replayScript, traceId], {
      cwd: root,
      env: quickstartEnv,
    });
    expect(replayed.code, replayed.output).toBe(0);
    const result = JSON.parse(replayed.output.trim().split("\n").at(-1) ?? "") as Record<string, any>;
    expect(result).toMatchObject({ count: 1, error: null, output: "4" });
    expect(result.tokens).toMatchObject({ input: 12, output: 3 });
    const replayTrace = await fetch(`${baseUrl}/api/sdk/traces/${result.traceId}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect((await replayTrace.json()).trace).toMatchObject({
      status: "completed",
      spanCount: 3,
      testRunId: result.testRunId,
      originalTraceId: traceId,
    });
  });
});
