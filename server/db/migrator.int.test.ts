import { describe, expect, it } from "vitest";
import { sql } from "./sql.ts";
import { openDatabase } from "./client.ts";
import { migrate, readMigrations } from "./migrator.ts";
import { createEmptyPostgresDatabase, onPostgres } from "../../test/harness.ts";

describe("migrator", () => {
  it("applies every migration once and records it", async () => {
    const db = await openDatabase({ dataDir: "memory://" });
    try {
      const all = readMigrations().map((m) => m.name);
      expect(await migrate(db.sql)).toEqual(all);
      expect(await migrate(db.sql)).toEqual([]);
      const rows = await db.sql.query<{ name: string }>(sql`SELECT name FROM reprise_migrations ORDER BY name`);
      expect(rows.map((r) => r.name)).toEqual(all);
    } finally {
      await db.close();
    }
  });

  it("refuses a migration edited after it was applied", async () => {
    const db = await openDatabase({ dataDir: "memory://" });
    try {
      const migrations = readMigrations();
      await migrate(db.sql, migrations);
      const edited = migrations.map((m, i) => (i === 0 ? { ...m, checksum: "changed" } : m));
      await expect(migrate(db.sql, edited)).rejects.toThrow(/was changed after it was applied/);
    } finally {
      await db.close();
    }
  });

  it.runIf(onPostgres)("applies each migration once when two processes' worth of pools migrate at once", async () => {
    const { url, drop } = await createEmptyPostgresDatabase();
    const a = await openDatabase({ url });
    const b = await openDatabase({ url });
    try {
      const [ra, rb] = await Promise.all([migrate(a.sql), migrate(b.sql)]);
      const all = readMigrations().map((m) => m.name);
      expect([...ra, ...rb].sort()).toEqual(all.sort());
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  });
});
