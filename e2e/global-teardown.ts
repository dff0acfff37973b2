import fs from "node:fs";
import { E2E } from "./env.ts";

/** The run's embedded database is throwaway. */
export default function globalTeardown() {
  if (E2E.dataDir.includes("reprise-e2e-")) fs.rmSync(E2E.dataDir, { recursive: true, force: true });
}
