// The Go SDK against the real server: `go run ./examples/quickstart` (as its README tells a user) records one
// trace into the built server (`npm start`, shared by the system suites), which reads back completed with 3
// spans, tokens 12/3 and model example-model; then the SDK's contract test records, reads back and replays traces through the real transport.
// Skipped, with a line saying what to install, when no Go toolchain is on PATH.
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const goDir = path.join(root, "sdks", "go");
const hasGo = spawnSync("sh", ["-c", "command -v go"]).status === 0;
if (!hasGo) console.log("(skipping the Go SDK system test: go not found; install with `apt-get install golang-go`)");

describe.skipIf(!hasGo)("the Go SDK against a real Reprise", () => {
  const { baseUrl, apiKey } = inject("reprise");
  const goEnv = () => ({ ...process.env, GOPROXY: "off", GOFLAGS: "-mod=readonly", REPRISE_API_KEY: apiKey, REPRISE_URL: baseUrl });

  it("go run ./examples/quickstart records a completed trace with 3 spans, tokens 12/3 and model example-model", async () => {
    const traceFunction = `go-quickstart-${Date.now()}`;
    const { code, stdout, stderr } = await runGo(["run", "./examples/quickstart"], { ...goEnv(), REPRISE_EXAMPLE_TRACE_FUNCTION: traceFunction });
    expect(code, stderr).toBe(0);
    const lastLine = stdout.trim().split("\n").at(-1) ?? "";
    const { traceId } = JSON.parse(lastLine) as { traceId: string };
    expect(traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lastLine).toBe(`{"traceId": "${traceId}"}`);

    const response = await fetch(`${baseUrl}/api/sdk/traces/${traceId}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(response.status).toBe(200);
    const { trace } = (await response.json()) as { trace: Record<string, any> };
    expect(trace).toMatchObject({
      id: traceId,
      traceFunctionKey: traceFunction,
      status: "completed",
      spanCount: 3,
      expectedSpanCount: 3,
      model: "example-model",
      tokens: { input: 12, output: 3 },
    });
  });

  it("passes the SDK's contract test (read back, then a 3-trace replay through the persistence barrier with a span served from the recording)", async () => {
    const { code, stdout, stderr } = await runGo(["test", "-count=1", "-run", "Contract", "-v", "."], {
      ...goEnv(),
      REPRISE_CONTRACT_URL: baseUrl,
      REPRISE_CONTRACT_API_KEY: apiKey,
    });
    const output = `${stdout}\n${stderr}`;
    expect(output, output).toMatch(/--- PASS: TestContractAgainstARealReprise/);
    expect(code, output).toBe(0);
  });
});

/** Runs the go tool in sdks/go, keeping stdout apart (the quickstart's last stdout line is its result). */
function runGo(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("go", args, { cwd: goDir, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

