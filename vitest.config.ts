import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests (*.test.ts) and database-backed integration tests (*.int.test.ts) beside the code.
// REPRISE_TEST_DB=postgres (set by scripts/test.mjs when TEST_DATABASE_URL is given) runs the
// integration tests against PostgreSQL, each file in a fresh database.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["server/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts"],
    exclude: ["node_modules", "sdks", "e2e", "examples", ".next", "test/system/**"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
  },
});
