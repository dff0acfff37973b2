// Global setup of the system suites that only need a running Reprise (the SDKs, MCP): one built server for all
// of them, started once instead of once per file. Each suite records under its own trace function keys, so they
// share the organization and its API key. Suites that test start-up itself start their own servers.
import type { TestProject } from "vitest/node";
import { startServer } from "./server-process.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared server's base URL and API key. */
    reprise: { baseUrl: string; apiKey: string };
  }
}

export default async function setup(project: TestProject) {
  const server = await startServer({ apiKey: `rp_system_${"s".repeat(32)}`, name: "System" });
  project.provide("reprise", { baseUrl: server.baseUrl, apiKey: server.apiKey });
  return () => server.stop();
}
