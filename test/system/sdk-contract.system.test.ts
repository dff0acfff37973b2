// The SDK against the real server: the SDK's contract suite (sdks/typescript/test/contract) records traces with
// the real OTLP transport into a freshly started `npm start` server, reads them back and replays them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, freePort, runToEnd, stopProcessGroup, waitHealthy } from "./server-process.ts";

const root = path.resolve(__dirname, "..", "..");
const apiKey = `rp_contract_${"k".repeat(32)}`;

describe("the SDK against a real Reprise", () => {
  let server: ChildProcess;
  let port: number;
  beforeAll(async () => {
    await buildApp();
    port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-contract-"));
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
        REPRISE_INIT_ORG_NAME: "Contract",
        REPRISE_INIT_USER_EMAIL: "contract@example.com",
        REPRISE_INIT_USER_PASSWORD: "contract password",
        REPRISE_INIT_API_KEY: apiKey,
      },
    });
    await waitHealthy(port);
  });
  afterAll(() => {
    stopProcessGroup(server);
  });

  it("passes the SDK's contract suite (round-trip through the meta, a 5-trace replay)", async () => {
    const { code, output } = await runToEnd(path.join(root, "node_modules", ".bin", "vitest"), ["run", "test/contract"], {
      cwd: path.join(root, "sdks", "typescript"),
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", REPRISE_CONTRACT_URL: `http://127.0.0.1:${port}`, REPRISE_CONTRACT_API_KEY: apiKey },
    });
    expect(output, output).toMatch(/Tests\s+\d+ passed/);
    expect(output, output).not.toMatch(/skipped/);
    expect(code, output).toBe(0);
  });
});
