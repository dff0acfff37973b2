// The SDK against the real server: the SDK's contract suite (sdks/typescript/test/contract) records traces with
// the real OTLP transport into the built server (`npm start`, shared by the system suites), reads them back and
// replays them.
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { runToEnd } from "./server-process.ts";

const root = path.resolve(__dirname, "..", "..");

describe("the SDK against a real Reprise", () => {
  const { baseUrl, apiKey } = inject("reprise");

  it("passes the SDK's contract suite (round-trip through the meta, a 5-trace replay)", async () => {
    const { code, output } = await runToEnd(path.join(root, "node_modules", ".bin", "vitest"), ["run", "test/contract"], {
      cwd: path.join(root, "sdks", "typescript"),
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", REPRISE_CONTRACT_URL: baseUrl, REPRISE_CONTRACT_API_KEY: apiKey },
    });
    expect(output, output).toMatch(/Tests\s+\d+ passed/);
    expect(output, output).not.toMatch(/skipped/);
    expect(code, output).toBe(0);
  });
});
