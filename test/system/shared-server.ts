// Global setup of the system suites that only need a running Reprise (the SDKs, MCP): one built server for all
// of them, started once instead of once per file. Each suite records under its own trace function keys, so they
// share the organization and its API key. Suites that test start-up itself start their own servers.
import type { TestProject } from "vitest/node";
import { createEmptyPostgresDatabase, onPostgres } from "../postgres-databases.ts";
import { startServer } from "./server-process.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared server's base URL and API key. */
    reprise: { baseUrl: string; apiKey: string };
  }
}

/**
 * On the embedded database by default; on a database of its own on PostgreSQL or Citus when REPRISE_TEST_DB says so
 * (scripts/test.mjs runs the SDK, MCP and scale-out suites again on the local Citus cluster).
 */
export default async function setup(project: TestProject) {
  const database = onPostgres ? await createEmptyPostgresDatabase() : undefined;
  const server = await startServer({ apiKey: `rp_system_${"s".repeat(32)}`, name: "System", env: database ? { ...process.env, DATABASE_URL: database.url } : undefined });
  project.provide("reprise", { baseUrl: server.baseUrl, apiKey: server.apiKey });
  return async () => {
    server.stop();
    await database?.drop();
  };
}
