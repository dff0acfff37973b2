// A thin, driver-level SQL interface shared by PGlite and PostgreSQL. Prisma does CRUD; this is for the ingestion hot
// path and the migrator, where Prisma's per-row cost is too high (docs/architecture.md, "Database access").
import type { Sql } from "@prisma/client/runtime/client";

/** Tagged template for parameterised SQL (sql-template-tag, as Prisma.sql). Never build SQL by concatenation. */
export { sqltag as sql, join, raw, empty } from "@prisma/client/runtime/client";
export type { Sql };
import { sqltag } from "@prisma/client/runtime/client";
import pg from "pg";

/**
 * A uuid[] value for `= ANY(...)`, passed as one text parameter (PGlite and pg serialise JS arrays
 * differently). Unlike `IN (SELECT … FROM jsonb_array_elements_text(…))`, the planner sees an array it
 * can probe an index with, instead of guessing 100 rows and scanning the organization's whole table.
 */
export const uuidArray = (ids: readonly string[]): Sql => sqltag`string_to_array(${ids.join(",")}, ',')::uuid[]`;

export type SqlKind = "postgres" | "pglite";

export interface SqlClient {
  /** Runs one parameterised statement built with the `sql` template tag. */
  /**
   * Runs one parameterised statement built with the `sql` template tag. `prepareAs` names a statement
   * whose text never changes (the ingestion hot path): PostgreSQL then parses and plans it once per
   * connection instead of on every request. PGlite runs in-process and ignores the name.
   */
  query<R = Record<string, unknown>>(statement: Sql, options?: { prepareAs?: string }): Promise<R[]>;
  /** Runs a script of one or more statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

/** One statement of a batch (SqlDatabase.batch). */
export interface TBatchStatement {
  statement: Sql;
  prepareAs?: string;
}

/** One database session (connection), outside any transaction unless `transaction` opens one on it. */
export interface SqlSession extends SqlClient {
  /** Runs `fn` in one transaction on this session (READ COMMITTED), committing when it resolves. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
}

export interface SqlDatabase extends SqlClient {
  readonly kind: SqlKind;
  /** Runs `fn` in one transaction (READ COMMITTED), committing when it resolves. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on one session of its own, for what lives as long as a session (a session-level advisory lock, a
   * statement that may not run in a transaction; server/db/migrator.ts). On PostgreSQL a pooled connection, closed
   * rather than given back if `fn` throws (so whatever it held ends with it); PGlite has one session.
   */
  session<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Runs statements that do not depend on each other's results in order, in one transaction (READ
   * COMMITTED: each statement still sees what committed before it started), and returns each one's rows.
   * On PostgreSQL they go out pipelined with their BEGIN and COMMIT, so the transaction costs one round
   * trip instead of one per statement (docs/architecture.md, "Database access"). If one fails, none is
   * committed and the first failure is thrown.
   */
  batch(statements: TBatchStatement[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

/** A batch's statements awaited one after another on a transaction's client (where nothing is pipelined). */
async function runInOrder(tx: SqlClient, statements: TBatchStatement[]): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for (const { statement, prepareAs } of statements) rows.push(await tx.query(statement, { prepareAs }));
  return rows;
}

/** The SQL client of a pool or of one checked-out connection (a transaction's). */
export function pgSqlClient(c: pg.Pool | pg.PoolClient): SqlClient {
  return {
    async query<R>(statement: Sql, options?: { prepareAs?: string }) {
      const values = statement.values as unknown[];
      const res = options?.prepareAs
        ? await c.query({ name: options.prepareAs, text: statement.text, values })
        : await c.query(statement.text, values);
      return res.rows as R[];
    },
    async exec(script: string) {
      await c.query(script);
    },
  };
}

/** `fn` in a transaction on a checked-out connection, rolled back if it throws. */
async function inPgTransaction<T>(client: pg.PoolClient, fn: (tx: SqlClient) => Promise<T>): Promise<T> {
  try {
    await client.query("BEGIN");
    const result = await fn(pgSqlClient(client));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

export function createPgSql(pool: pg.Pool): SqlDatabase {
  const clientOf = pgSqlClient;
  return {
    kind: "postgres",
    ...clientOf(pool),
    async transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        return await inPgTransaction(client, fn);
      } finally {
        client.release();
      }
    },
    async session(fn) {
      const client = await pool.connect();
      let failed = false;
      try {
        return await fn({ ...clientOf(client), transaction: (f) => inPgTransaction(client, f) });
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        client.release(failed);
      }
    },
    async batch(statements) {
      // Reprise's pool is pipelined (server/db/client.ts); any other runs the statements one after another.
      if (!pool.options.pipeline) return this.transaction((tx) => runInOrder(tx, statements));
      const client = await pool.connect();
      let broken: unknown;
      try {
        // Every query below is written at once, each behind the one before it.
        const begin = client.query("BEGIN");
        const results = statements.map(({ statement, prepareAs }) =>
          prepareAs
            ? client.query({ name: prepareAs, text: statement.text, values: statement.values as unknown[] })
            : client.query(statement.text, statement.values as unknown[]),
        );
        const commit = client.query("COMMIT");
        const settled = await Promise.allSettled([begin, ...results, commit]);
        const failure = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
        if (failure) {
          // After a failed statement PostgreSQL refuses the rest and turns COMMIT into a rollback; a
          // connection that failed mid-way (no answer to COMMIT) is not given back to the pool.
          if (settled[settled.length - 1].status === "rejected") broken = failure.reason;
          throw failure.reason;
        }
        return settled.slice(1, -1).map((r) => (r as PromiseFulfilledResult<pg.QueryResult>).value.rows);
      } finally {
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/** What the SQL client needs of PGlite, of its thread (pglite-thread.ts) or of one of their transactions. */
export interface TPgliteQueryable {
  query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
  exec(text: string): Promise<unknown>;
}

export interface TPglite extends TPgliteQueryable {
  transaction<T>(callback: (tx: TPgliteQueryable) => Promise<T>): Promise<T>;
  /** The statements in order in one transaction, in one call (the thread's; docs/architecture.md, "Batches"). */
  batch?(statements: Array<{ text: string; params: unknown[] }>): Promise<unknown[][]>;
  readonly closed: boolean;
  close(): Promise<void>;
}

/** The SQL client of a PGlite instance or of one of its transactions. */
export function pgliteSqlClient(c: TPgliteQueryable): SqlClient {
  return {
    async query<R>(statement: Sql) {
      const res = await c.query<R>(statement.text, statement.values as unknown[]);
      return res.rows;
    },
    async exec(script: string) {
      await c.exec(script);
    },
  };
}

export function createPgliteSql(db: TPglite): SqlDatabase {
  const clientOf = pgliteSqlClient;
  return {
    kind: "pglite",
    ...clientOf(db),
    transaction: (fn) => db.transaction((tx) => fn(clientOf(tx))),
    session: (fn) => fn({ ...clientOf(db), transaction: (f) => db.transaction((tx) => f(clientOf(tx))) }),
    // On the database's thread, one message there and one back instead of a pair per statement and two for
    // BEGIN and COMMIT; in-process (PGlite itself), simply in order in one transaction.
    batch: (statements) =>
      db.batch
        ? db.batch(statements.map(({ statement }) => ({ text: statement.text, params: statement.values as unknown[] })))
        : db.transaction((tx) => runInOrder(clientOf(tx), statements)),
    async close() {
      if (!db.closed) await db.close();
    },
  };
}
