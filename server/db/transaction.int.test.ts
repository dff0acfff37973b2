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
    const seen = await Promise.all(
      names.map((name) =>
        db().transaction(async (tx) => {
          await tx.prisma.dataset.create({ data: { id: randomUUID(), organizationId: org.organizationId, traceFunctionKey: "f", name } });
          await new Promise((resolve) => setTimeout(resolve, 50));
          // Uncommitted rows of the other transactions are invisible; this one's own row is there.
          return (await tx.sql.query<{ name: string }>(sql`SELECT name FROM datasets WHERE name LIKE 'parallel-%'`)).map((r) => r.name);
        }),
      ),
    );
    seen.forEach((rows, i) => expect(rows).toEqual([names[i]]));
  });
});
