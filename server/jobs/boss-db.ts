// pg-boss "bring your own database": pg-boss calls executeSql(text, values) and reads `.rows`.
// We hand it our shared client (server/db/sql.ts), so the queue lives in the same database, on
// PostgreSQL and on embedded PGlite alike, and jobs can be inserted inside our own transactions.
import type { Sql, SqlClient, SqlDatabase } from "../db/sql.ts";

export interface BossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Resolves once every statement started so far has settled. pg-boss completes a worker's jobs without
   * awaiting it after the handler returns, so that statement can outlive boss.stop(); whoever closes the
   * database afterwards waits for this first.
   */
  settled(): Promise<void>;
}

/** A parameterised statement in the shape our clients run (they read only `.text` and `.values`). */
function statement(text: string, values: unknown[]): Sql {
  return { text, values } as unknown as Sql;
}

// pg-boss sends its schema scripts (BEGIN; …; COMMIT;) without parameters. node-pg runs those with the
// simple protocol; PGlite's query() uses the extended protocol, which accepts a single statement only.
const MULTI_STATEMENT = /cannot insert multiple commands into a prepared statement/i;

/**
 * Adapts a client (the database, or a transaction's client) to pg-boss's db interface.
 * `pglite` switches multi-statement scripts to exec(), rolling back if a script fails half-way
 * (the single PGlite session must not stay inside an aborted transaction).
 */
export function toBossDb(client: SqlClient | SqlDatabase, kind: SqlDatabase["kind"]): BossDb {
  const running = new Set<Promise<unknown>>();
  const run = async (text: string, values: unknown[]): Promise<{ rows: unknown[] }> => {
    try {
      return { rows: await client.query(statement(text, values)) };
    } catch (error) {
      if (kind !== "pglite" || values.length > 0 || !MULTI_STATEMENT.test(String((error as Error).message))) throw error;
    }
    try {
      await client.exec(text);
      return { rows: [] };
    } catch (error) {
      await client.exec("ROLLBACK").catch(() => undefined);
      throw error;
    }
  };
  return {
    executeSql(text, values = []) {
      const result = run(text, values);
      const settled = result.then(() => undefined, () => undefined);
      running.add(settled);
      void settled.then(() => running.delete(settled));
      return result;
    },
    async settled() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
