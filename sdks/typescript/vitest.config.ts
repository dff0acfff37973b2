import { defineConfig } from "vitest/config";

// The SDK's own test suite (run by `npm test -w sdk`). Transport tests start real HTTP servers on 127.0.0.1.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
