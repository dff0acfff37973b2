// The embedded database on its own thread (docs/architecture.md, "Database access"): what crosses between the
// threads comes back as PGlite itself gives it, errors included, so Prisma's adapter and the SQL client
// cannot tell the difference.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, PGlite } from "@electric-sql/pglite";
import { PgliteThread } from "./pglite-thread.ts";
import { onPostgres, useTestDatabase } from "../../test/harness.ts";

const VALUES = `SELECT 1 AS int, 12345678901234::bigint AS big, 'é ☃ 😀'::text AS text, '2026-01-02 03:04:05.678901+00'::timestamptz AS at,
  '{"a":[1,"x",null]}'::jsonb AS doc, '\\x00ff10'::bytea AS bytes, ARRAY[1,2]::int[] AS list, NULL::text AS nothing,
  '00000000-0000-4000-8000-000000000001'::uuid AS id`;

describe("PgliteThread", () => {
  let thread: PgliteThread;
  let inProcess: PGlite;
  beforeAll(async () => {
    [thread, inProcess] = await Promise.all([PgliteThread.open({ startParams: PGlite.defaultStartParams }), PGlite.create()]);
  });
  afterAll(async () => {
    await Promise.all([thread.close(), inProcess.close()]);
  });

  it("answers a query with the rows and fields PGlite gives in-process, parsers and row modes included", async () => {
    const here = await inProcess.query(VALUES);
    const there = await thread.query(VALUES);
    expect(there.rows).toEqual(here.rows);
    expect(there.fields).toEqual(here.fields);
    expect((there.rows[0] as { bytes: unknown }).bytes).toBeInstanceOf(Uint8Array);
    // A parser of the caller's (Prisma's adapter passes some) runs on the caller's thread, on PostgreSQL's text.
    const parsers = { 3802: (text: string) => `jsonb:${text}`, 1184: (text: string) => `at:${text}` };
    const parsed = await thread.query("SELECT '{\"a\":1}'::jsonb AS doc, 1 AS n", [], { rowMode: "array", parsers });
    expect(parsed.rows).toEqual([['jsonb:{"a": 1}', 1]]);
  });

  it("passes long text parameters as bytes and stores exactly what in-process PGlite stores, whatever their type", async () => {
    // Long enough to cross as UTF-8 bytes (pglite-thread.ts, ENCODE_PARAMS_FROM), with multi-byte characters
    // and escapes; text and json go in binary format, jsonb with its version byte, other types as text.
    const doc = JSON.stringify({ s: "é☃😀\\\"\n".repeat(4000), n: [1, 2.5, null], nested: { k: "x".repeat(20_000) } });
    const ints = `{${Array.from({ length: 6000 }, (_, i) => i).join(",")}}`;
    const statement = `SELECT $1::text AS t, length($1::text) AS n, $2::json AS j, $3::jsonb AS jb,
      (SELECT count(*)::int FROM json_array_elements($4::json)) AS elements, array_length($5::int[], 1) AS ints`;
    const params = [doc, doc, doc, JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ i, s: "ü".repeat(3) }))), ints];
    const here = await inProcess.query(statement, params);
    const there = await thread.query(statement, params);
    expect(there.rows).toEqual(here.rows);
    expect(there.rows[0]).toMatchObject({ t: doc, elements: 3000, ints: 6000 });
    // In a batch too.
    const [rows] = await thread.batch([{ text: "SELECT $1::jsonb = $2::jsonb AS same, $3::text = $4::text AS equal", params: [doc, doc, doc, doc] }]);
    expect(rows).toEqual([{ same: true, equal: true }]);
  });

  it("passes PostgreSQL's errors on as PGlite's DatabaseError, with their SQLSTATE and fields", async () => {
    const error = await thread.query("SELECT 1 / $1::int", [0]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(messages.DatabaseError);
    expect(error).toMatchObject({ code: "22012", severity: "ERROR", message: "division by zero" });
    // The thread is still usable.
    expect((await thread.query("SELECT 2 AS n")).rows).toEqual([{ n: 2 }]);
  });

  it("runs a transaction's statements together and rolls all of them back when its callback fails", async () => {
    await thread.exec("CREATE TABLE IF NOT EXISTS thread_t (v text)");
    const kept = randomUUID();
    await thread.transaction(async (tx) => {
      await tx.query("INSERT INTO thread_t VALUES ($1)", [kept]);
    });
    const lost = randomUUID();
    await expect(
      thread.transaction(async (tx) => {
        await tx.query("INSERT INTO thread_t VALUES ($1)", [lost]);
        throw new Error("caller gave up");
      }),
    ).rejects.toThrow("caller gave up");
    const rows = (await thread.query<{ v: string }>("SELECT v FROM thread_t WHERE v = ANY($1)", [[kept, lost]])).rows;
    expect(rows).toEqual([{ v: kept }]);
  });

  it("runs a batch in one transaction: a failing statement leaves nothing of the others", async () => {
    await thread.exec("CREATE TABLE IF NOT EXISTS thread_b (v text)");
    const v = randomUUID();
    expect(await thread.batch([{ text: "INSERT INTO thread_b VALUES ($1) RETURNING v", params: [v] }, { text: "SELECT count(*)::int AS n FROM thread_b WHERE v = $1", params: [v] }])).toEqual([[{ v }], [{ n: 1 }]]);
    const w = randomUUID();
    await expect(thread.batch([{ text: "INSERT INTO thread_b VALUES ($1)", params: [w] }, { text: "SELECT 1 / 0", params: [] }])).rejects.toMatchObject({ code: "22012" });
    expect((await thread.query("SELECT v FROM thread_b WHERE v = $1", [w])).rows).toEqual([]);
  });

  it("refuses calls once closed, with an error rather than a hang", async () => {
    const other = await PgliteThread.open({ startParams: PGlite.defaultStartParams });
    await other.close();
    expect(other.closed).toBe(true);
    await expect(other.query("SELECT 1")).rejects.toThrow(/closed/);
  });
});

describe.skipIf(onPostgres)("Prisma on the thread", () => {
  const database = useTestDatabase();

  it("hands Prisma's adapter a unique violation it recognises as PostgreSQL's, with its SQLSTATE", async () => {
    const db = database();
    const organization = await db.prisma.organization.create({ data: { id: randomUUID(), name: "thread" } });
    const user = (name: string) => ({ id: randomUUID(), email, name, passwordHash: "x", organizationId: organization.id });
    const email = `${randomUUID()}@example.test`;
    await db.prisma.user.create({ data: user("a") });
    const error = await db.prisma.user.create({ data: user("b") }).catch((e: unknown) => e);
    // The adapter wraps only PGlite's own DatabaseError this way; any other error it throws on unchanged.
    expect(error).toMatchObject({ name: "DriverAdapterError", cause: { kind: "postgres", code: "23505" } });
  });
});
