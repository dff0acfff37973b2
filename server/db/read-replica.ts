// A read replica for the console (docs/scaling.md, "4. A read replica for the console"): a second pool on
// DATABASE_READ_URL, a PostgreSQL streaming standby of the primary. The console's heavy reads go there
// (server/trpc/replica-reads.ts says which and when); when it does not answer, it is left alone for a few
// seconds and those reads go to the primary, so a replica going away costs speed, never an error.
import { openDatabase, type Database } from "./client.ts";
import { sql } from "./sql.ts";

export interface TReadReplica {
  readonly db: Database;
  /** False for a few seconds after the replica failed to answer. */
  available(): boolean;
  markUnavailable(): void;
  /** Whether the replica has replayed the primary's write-ahead log up to `position` (an LSN). */
  hasReplayed(position: string): Promise<boolean>;
  close(): Promise<void>;
}

/** How long reads stay on the primary after the replica failed to answer. */
export const REPLICA_RETRY_MS = 5_000;
/** A replica that does not accept a connection in this time is treated as gone. */
const CONNECT_TIMEOUT_MS = 2_000;

export async function openReadReplica(url: string, options: { maxConnections?: number } = {}): Promise<TReadReplica> {
  const db = await openDatabase({ url, maxConnections: options.maxConnections ?? 10, connectTimeoutMs: CONNECT_TIMEOUT_MS });
  let downUntil = 0;
  return {
    get db() {
      return db;
    },
    available: () => Date.now() >= downUntil,
    markUnavailable: () => {
      downUntil = Date.now() + REPLICA_RETRY_MS;
    },
    async hasReplayed(position) {
      const [row] = await db.sql.query<{ caught: boolean | null }>(sql`
        SELECT pg_last_wal_replay_lsn() >= ${position}::pg_lsn AS caught`);
      // Not a standby (replay position null): it is the primary itself, or a copy that replays nothing.
      return row?.caught !== false;
    },
    close: () => db.close(),
  };
}

/**
 * The primary's write-ahead log insert position: what a replica must have replayed to show a write that committed
 * before (the insert position, not the write position, which may lag behind a commit under asynchronous commit).
 */
export async function primaryWalPosition(db: Database): Promise<string | null> {
  if (db.kind !== "postgres") return null;
  const [row] = await db.sql.query<{ lsn: string }>(sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
  return row?.lsn ?? null;
}

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);

/** Whether an error says the database could not be reached or went away (not a query's own failure). */
export function isConnectionFailure(error: unknown): boolean {
  for (let e = error as { code?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth++) {
    if (e.code && (CONNECTION_CODES.has(e.code) || /^(08|57P0)/.test(e.code))) return true;
    if (typeof e.message === "string" && /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|the database system is (starting up|shutting down)/i.test(e.message)) return true;
  }
  return false;
}
