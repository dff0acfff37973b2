// Runs once before the test files: migrates one database and lets each test file start from a copy of it instead of
// running every migration again, which dominated the suite's time.
// - PGlite: a migrated data directory, dumped to a file; a file's database loads it (~0.5 s instead of ~3 s).
// - PostgreSQL and Citus (REPRISE_TEST_DB): a migrated template database (on a cluster, on every node, its tables
//   distributed), copied with CREATE DATABASE … TEMPLATE (~0.1 s instead of ~1 s on PostgreSQL and several seconds
//   on Citus, where distributing every table is the slow part).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { PGlite } from "@electric-sql/pglite";
import { createPgliteSql } from "../server/db/sql.ts";
import { migrate } from "../server/db/migrator.ts";
import { openDatabase } from "../server/db/client.ts";
import { createEmptyPostgresDatabase, onPostgres, sealTemplateDatabase } from "./postgres-databases.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    /** The migrated template database's name on the test server (every node of a cluster); "" on PGlite. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (onPostgres) {
    const { url, drop } = await createEmptyPostgresDatabase(undefined, undefined, "reprise_template");
    const db = await openDatabase({ url, maxConnections: 4 });
    try {
      await migrate(db.sql);
    } finally {
      await db.close();
    }
    const name = new URL(url).pathname.slice(1);
    await sealTemplateDatabase(name);
    project.provide("postgresTemplate", name);
    project.provide("pgliteTemplatePath", "");
    return drop;
  }
  const pglite = new PGlite();
  await migrate(createPgliteSql(pglite));
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "reprise-template-")), "pglite.tar");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplatePath", file);
  project.provide("postgresTemplate", "");
  return async () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
