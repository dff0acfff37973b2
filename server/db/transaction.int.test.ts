// db.transaction: one transaction that Prisma calls and SQL statements join alike (docs/architecture.md
// "Database access"), on PGlite and on PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createTestOrg, onPostgres, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { sql } from "./sql.ts";

describe("db.transaction", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
  });

  const countDatasets = async (name: string) =>
    (await db().sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM datasets WHERE name = ${name}`))[0]!.n;

  it("lets SQL read a Prisma write and Prisma read an SQL write before the commit, and commits both", async () => {
    const name = `tx-${randomUUID()}`;
    const seen = await db().transaction(async (tx) => {
      await tx.prisma.dataset.create({ data: { id: randomUUID(), organizationId: org.organizationId, traceFunctionKey: "f", name } });
      const bySql = (await tx.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM datasets WHERE name = ${name}`))[0]!.n;
      await tx.sql.query(sql`INSERT INTO datasets (id, organization_id, trace_function_key, name) VALUES (${randomUUID()}::uuid, ${org.organizationId}::uuid, 'g', ${name})`);
      const byPrisma = await tx.prisma.dataset.count({ where: { name } });
      return { bySql, byPrisma };
    });
    expect(seen).toEqual({ bySql: 1, byPrisma: 2 });
    expect(await countDatasets(name)).toBe(2);
  });

  it("rolls back both kinds of write when the callback throws", async () => {
    const name = `rollback-${randomUUID()}`;
    await expect(
      db().transaction(async (tx) => {
        await tx.prisma.dataset.create({ data: { id: randomUUID(), organizationId: org.organizationId, traceFunctionKey: "f", name } });
        await tx.sql.query(sql`INSERT INTO datasets (id, organization_id, trace_function_key, name) VALUES (${randomUUID()}::uuid, ${org.organizationId}::uuid, 'g', ${name})`);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await countDatasets(name)).toBe(0);
  });

  it.runIf(onPostgres)("keeps concurrent transactions apart: each one's SQL runs on its own connection", async () => {
    const names = Array.from({ length: 4 }, () => `parallel-${randomUUID()}`);
    // Every transaction inserts, then waits until all have inserted and none has committed, so a row of
    // another transaction can only be visible if the SQL ran on that transaction's connection.
    const barrier = (n: number) => {
      let arrived = 0;
      let release!: () => void;
      const all = new Promise<void>((resolve) => (release = resolve));
      return () => (++arrived === n && release(), all);
    };
    const inserted = barrier(names.length);
    const selected = barrier(names.length);
    const seen = await Promise.all(
      names.map((name) =>
        db().transaction(async (tx) => {
          await tx.prisma.dataset.create({ data: { id: randomUUID(), organizationId: org.organizationId, traceFunctionKey: "f", name } });
          await inserted();
          const rows = (await tx.sql.query<{ name: string }>(sql`SELECT name FROM datasets WHERE name LIKE 'parallel-%'`)).map((r) => r.name);
          await selected();
          return rows;
        }),
      ),
    );
    seen.forEach((rows, i) => expect(rows).toEqual([names[i]]));
  });
});
