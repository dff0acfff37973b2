// SqlDatabase.batch: statements run in order as one transaction (docs/architecture.md, "Database access"), on
// PGlite and on PostgreSQL; on PostgreSQL the whole transaction is one round trip.
import net from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyPostgresDatabase, createTestOrg, onPostgres, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { openDatabase, type Database } from "./client.ts";
import { sql } from "./sql.ts";

describe("db.sql.batch", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
  });

  const insert = (name: string) => ({
    statement: sql`INSERT INTO datasets (id, organization_id, trace_function_key, name)
      VALUES (${randomUUID()}::uuid, ${org.organizationId}::uuid, 'f', ${name}) RETURNING name`,
  });
  const count = (name: string) => ({ statement: sql`SELECT count(*)::int AS n FROM datasets WHERE name = ${name}` });

  it("runs the statements in order, each seeing the writes before it, and returns each one's rows", async () => {
    const name = `batch-${randomUUID()}`;
    const rows = await db().sql.batch([count(name), insert(name), { ...count(name), prepareAs: "batch_test_count" }]);
    expect(rows).toEqual([[{ n: 0 }], [{ name }], [{ n: 1 }]]);
    expect(await db().sql.query(count(name).statement)).toEqual([{ n: 1 }]);
  });

  it("commits nothing when a statement fails, throws that statement's error, and leaves the connection usable", async () => {
    const name = `batch-fail-${randomUUID()}`;
    await expect(db().sql.batch([insert(name), { statement: sql`SELECT 1 / ${0}::int` }, insert(name)])).rejects.toMatchObject({ code: "22012" });
    expect(await db().sql.query(count(name).statement)).toEqual([{ n: 0 }]);
    // Every pooled connection still works, outside a transaction (a batch left open would hold its rows back).
    const names = Array.from({ length: 12 }, () => `batch-after-${randomUUID()}`);
    await Promise.all(names.map((n) => db().sql.batch([insert(n)])));
    for (const n of names) expect(await db().sql.query(count(n).statement)).toEqual([{ n: 1 }]);
  });
});

/**
 * A TCP relay in front of PostgreSQL that counts the client's turns: how often the client sends after
 * the server has answered. Sequential statements take a turn each; a pipelined batch takes one.
 */
async function countingRelay(target: URL): Promise<{ url: string; turns: () => number; reset: () => void; close: () => Promise<void> }> {
  let turns = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    let answered = true;
    sockets.add(client).add(upstream);
    client.on("data", (chunk) => {
      if (answered) turns++;
      answered = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      answered = true;
      client.write(chunk);
    });
    const end = () => (client.destroy(), upstream.destroy());
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    turns: () => turns,
    reset: () => void (turns = 0),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.runIf(onPostgres)("db.sql.batch on PostgreSQL", () => {
  let empty: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
  let relay: Awaited<ReturnType<typeof countingRelay>>;
  let database: Database;
  beforeAll(async () => {
    empty = await createEmptyPostgresDatabase();
    relay = await countingRelay(new URL(empty.url));
    database = await openDatabase({ url: relay.url, maxConnections: 1 });
    await database.sql.query(sql`CREATE TABLE batch_rows (n int)`);
  });
  afterAll(async () => {
    await database?.close();
    await relay?.close();
    await empty?.drop();
  });

  it("sends a transaction of several statements in one round trip", async () => {
    const statements = [1, 2, 3].map((n) => ({ statement: sql`INSERT INTO batch_rows VALUES (${n}) RETURNING n` }));
    relay.reset();
    expect(await database.sql.batch(statements)).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);
    expect(relay.turns()).toBe(1);
    // The same statements awaited one by one in a transaction: BEGIN, three inserts, COMMIT.
    relay.reset();
    await database.sql.transaction(async (tx) => {
      for (const { statement } of statements) await tx.query(statement);
    });
    expect(relay.turns()).toBe(5);
  });
});

describe.runIf(onPostgres)("named statements on PostgreSQL", () => {
  const db = useTestDatabase();

  it("are planned for their parameters on every run, never from a cached generic plan", async () => {
    // PostgreSQL switches a named statement to a generic plan after five runs; one made while the tables
    // are small keeps its choices after they have grown (docs/scaling.md).
    const runs = await db().sql.transaction(async (tx) => {
      for (let i = 0; i < 8; i++) {
        await tx.query(sql`SELECT id FROM traces WHERE organization_id = ${randomUUID()}::uuid AND id = ${randomUUID()}::uuid`, { prepareAs: "plan_cache_probe" });
      }
      return tx.query<{ generic: string; custom: string }>(
        sql`SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements WHERE name = 'plan_cache_probe'`,
      );
    });
    expect(runs).toEqual([{ generic: "0", custom: "8" }]);
  });
});
