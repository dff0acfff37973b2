// The Go SDK against the real server: `go run ./examples/quickstart` (as its README tells a user) records one
// trace into a freshly started `npm start` server, which reads back completed with 3 spans, tokens 12/3 and model
// example-model; then the SDK's contract test records, reads back and replays traces through the real transport.
// Skipped, with a line saying what to install, when no Go toolchain is on PATH.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, freePort, stopProcessGroup, waitHealthy } from "./server-process.ts";

const root = path.resolve(__dirname, "..", "..");
const goDir = path.join(root, "sdks", "go");
const apiKey = `rp_gosdk_${"k".repeat(32)}`;
const hasGo = spawnSync("sh", ["-c", "command -v go"]).status === 0;
if (!hasGo) console.log("(skipping the Go SDK system test: go not found; install with `apt-get install golang-go`)");

describe.skipIf(!hasGo)("the Go SDK against a real Reprise", () => {
  let server: ChildProcess;
  let baseUrl: string;
  const goEnv = () => ({ ...process.env, GOPROXY: "off", GOFLAGS: "-mod=readonly", REPRISE_API_KEY: apiKey, REPRISE_URL: baseUrl });

  beforeAll(async () => {
    await buildApp();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-go-sdk-"));
    server = spawn("npm", ["start", "--silent"], {
      cwd: root,
      stdio: "ignore",
      detached: true,
      env: {
        ...process.env,
        DATABASE_URL: "",
        PORT: String(port),
        REPRISE_DATA_DIR: dataDir,
        REPRISE_LOG_LEVEL: "warn",
        REPRISE_INIT_ORG_NAME: "Go SDK",
        REPRISE_INIT_USER_EMAIL: "go-sdk@example.com",
        REPRISE_INIT_USER_PASSWORD: "go sdk password",
        REPRISE_INIT_API_KEY: apiKey,
      },
    });
    await waitHealthy(port);
  });
  afterAll(() => {
    stopProcessGroup(server);
  });

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

