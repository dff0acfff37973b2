import { defineConfig } from "vitest/config";

// The SDK conformance suite (README.md): one describe per SDK manifest, each scenario against a fresh recorder
// and driver process. Files run one at a time: scenarios measure timing, and the machine may be small.
export default defineConfig({
  test: {
    root: __dirname,
    include: ["scenarios/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
