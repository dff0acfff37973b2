import path from "node:path";
import { defineConfig } from "vitest/config";

// System tests start the real, built server as separate processes (`npm start`, `next start`).
// scripts/test.mjs runs them after the other stages; they build the app first when needed.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["test/system/**/*.system.test.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
});
