// A thin, driver-level SQL interface shared by PGlite and PostgreSQL. Prisma does CRUD; this is for the ingestion hot
// path and the migrator, where Prisma's per-row cost is too high (docs/architecture.md, "Database access").
import type { Sql } from "@prisma/client/runtime/client";

/** Tagged template for parameterised SQL (sql-template-tag, as Prisma.sql). Never build SQL by concatenation. */
export { sqltag as sql, join, raw, empty } from "@prisma/client/runtime/client";
export type { Sql };
import { sqltag } from "@prisma/client/runtime/client";
import pg from "pg";
import type { PGlite, Transaction } from "@electric-sql/pglite";

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

export interface SqlDatabase extends SqlClient {
  readonly kind: SqlKind;
  /** Runs `fn` in one transaction (READ COMMITTED), committing when it resolves. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
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

export function createPgSql(pool: pg.Pool): SqlDatabase {
  const clientOf = pgSqlClient;
  return {
    kind: "postgres",
    ...clientOf(pool),
    async transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(clientOf(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/** The SQL client of a PGlite instance or of one of its transactions. */
export function pgliteSqlClient(c: PGlite | Transaction): SqlClient {
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

export function createPgliteSql(db: PGlite): SqlDatabase {
  const clientOf = pgliteSqlClient;
  return {
    kind: "pglite",
    ...clientOf(db),
    transaction: (fn) => db.transaction((tx) => fn(clientOf(tx))),
    async close() {
      if (!db.closed) await db.close();
    },
  };
}
