import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests (*.test.ts) and database-backed integration tests (*.int.test.ts) beside the code.
// REPRISE_TEST_DB=postgres (set by scripts/test.mjs when TEST_DATABASE_URL is given) runs the
// integration tests against PostgreSQL, each file in a fresh database.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["server/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts"],
    exclude: ["node_modules", "sdks", "e2e", "examples", ".next", "test/system/**"],
    pool: "forks",
    // At least two files at once: most of a file's time is spent waiting on its database, so on a 2-core
    // machine two workers (Vitest's default there is one) take the stage from ~250 s to ~170 s on PGlite
    // and from ~200 s to ~120 s on PostgreSQL.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
  },
});
