// Runs once before the test files: builds a migrated PGlite data directory and dumps it, so each test
// file starts its embedded database from that template (~0.5 s) instead of running initdb and every
// migration again (~3 s), which dominated the suite's time.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { PGlite } from "@electric-sql/pglite";
import { createPgliteSql } from "../server/db/sql.ts";
import { migrate } from "../server/db/migrator.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const pglite = new PGlite();
  await migrate(createPgliteSql(pglite));
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "reprise-template-")), "pglite.tar");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplatePath", file);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
