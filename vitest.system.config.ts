import path from "node:path";
import { defineConfig } from "vitest/config";

// System tests run the real, built server as separate processes (`npm start`, or the server entry it runs).
// scripts/test.mjs runs them after the other stages; they build the app first when needed.
// Suites that only need a running server share one (test/system/shared-server.ts); the start-up and scale-out
// suites start their own.
const OWN_SERVER = [
  "test/system/start.system.test.ts",
  "test/system/scale-out.system.test.ts",
  "test/system/crash.system.test.ts",
  "test/system/hardening.system.test.ts",
  "test/system/entry.system.test.ts",
  "test/system/faults.system.test.ts",
  "test/system/rebalance.system.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    pool: "forks",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
    projects: [
      {
        extends: true,
        test: {
          name: "shared server",
          include: ["test/system/**/*.system.test.ts"],
          exclude: OWN_SERVER,
          globalSetup: ["test/system/shared-server.ts"],
        },
      },
      { extends: true, test: { name: "own server", include: OWN_SERVER } },
    ],
  },
});
