// Distribution on Citus (docs/operations.md, "Citus"): runs on the Citus stage of `npm test` (REPRISE_TEST_DB=citus).
import { describe, expect, it } from "vitest";
import { sql } from "./sql.ts";
import { openDatabase } from "./client.ts";
import { migrate } from "./migrator.ts";
import { COLOCATION_ANCHOR, distributeOnCitus, REFERENCE_TABLES } from "./citus.ts";
import { createEmptyPostgresDatabase, onCitus } from "../../test/harness.ts";

describe.runIf(onCitus)("distribution on Citus", () => {
  it("distributes every organization table by organization_id beside traces and makes the global tables reference tables, as part of migrating, once from two instances at once", async () => {
    const { url, drop } = await createEmptyPostgresDatabase();
    const a = await openDatabase({ url });
    const b = await openDatabase({ url });
    try {
      // Two instances starting together: the migrator distributes the tables once, after the migrations.
      await Promise.all([migrate(a.sql), migrate(b.sql)]);
      expect(await distributeOnCitus(a.sql)).toEqual([]);

      const rows = await a.sql.query<{ name: string; method: string; column: string | null; colocated: boolean }>(sql`
        SELECT c.relname AS name, p.partmethod::text AS method,
          CASE WHEN p.partmethod = 'h' THEN column_to_column_name(p.logicalrelid, p.partkey) END AS column,
          p.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = ${COLOCATION_ANCHOR}::regclass) AS colocated
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
        LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
        WHERE c.relkind = 'r' ORDER BY 1`);
      const byName = new Map(rows.map((r) => [r.name, r]));
      for (const name of REFERENCE_TABLES) expect(byName.get(name)?.method, name).toBe("n");
      expect(byName.get("reprise_migrations")?.method).toBeNull();
      const distributed = rows.filter((r) => !(REFERENCE_TABLES as readonly string[]).includes(r.name) && r.name !== "reprise_migrations");
      expect(distributed.length).toBeGreaterThan(15);
      for (const r of distributed) expect({ name: r.name, method: r.method, column: r.column, colocated: r.colocated }).toEqual({ name: r.name, method: "h", column: "organization_id", colocated: true });
      // The job queue's schema is not ours to distribute: its tables stay on the coordinator.
      const queue = await a.sql.query(sql`SELECT 1 FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname <> 'public'`);
      expect(queue).toEqual([]);

      // A table a later migration creates is distributed beside the others on the next run of the migrator.
      await a.sql.exec("CREATE TABLE later_feature (organization_id uuid NOT NULL, id uuid NOT NULL, PRIMARY KEY (organization_id, id))");
      await migrate(a.sql);
      const [later] = await a.sql.query<{ method: string; colocated: boolean }>(sql`
        SELECT p.partmethod::text AS method, p.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = ${COLOCATION_ANCHOR}::regclass) AS colocated
        FROM pg_dist_partition p WHERE p.logicalrelid = 'later_feature'::regclass`);
      expect(later).toEqual({ method: "h", colocated: true });
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  });
});
