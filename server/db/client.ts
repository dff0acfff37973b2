// Opens the database: PostgreSQL through the pg pool when a URL is given, else embedded PGlite.
// Prisma (CRUD) and the raw SQL client (set-based writes, locks, the hot path, the job queue) share one
// pool or one PGlite instance, and one transaction helper both can join (docs/architecture.md "Database access").
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient, type Prisma } from "../generated/prisma/client.ts";
import { logger } from "../logger.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { tightenDataDir } from "./data-dir-modes.ts";
import { PgliteThread } from "./pglite-thread.ts";
import { createPgliteSql, createPgSql, pgliteSqlClient, pgSqlClient, type SqlClient, type SqlDatabase, type SqlKind, type TPgliteQueryable } from "./sql.ts";

/**
 * What every query runs on: the database itself, or one transaction of it (`db.transaction`). Its two
 * halves always talk to the same connection, so a Prisma call and an SQL statement of one transaction
 * see each other's writes and commit together.
 */
export interface DbClient {
  readonly prisma: Prisma.TransactionClient;
  readonly sql: SqlClient;
}

export interface TransactionOptions {
  /** How long to wait for a connection (ms). */
  maxWait?: number;
  /** How long the transaction may run before it is rolled back (ms). */
  timeout?: number;
}

export interface Database extends DbClient {
  readonly prisma: InstanceType<typeof PrismaClient>;
  /** The SQL client; its own `transaction` is SQL-only, for the ingestion write path and the migrator. */
  readonly sql: SqlDatabase;
  readonly kind: SqlKind;
  /** Runs `fn` in one transaction (READ COMMITTED) that Prisma and SQL queries join alike; commits when it resolves. */
  transaction<T>(fn: (tx: DbClient) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Human-readable description of where data lives, for logs (never includes a password). */
  location: string;
  /** The embedded database only: the size of its WebAssembly memory in bytes, which never shrinks (bench/README.md). */
  memoryBytes?(): Promise<number>;
  /** An embedded database in a folder only: copies its data directory into the new folder `to` (a consistent copy). */
  copyDataDir?(to: string): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgresql://… ; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; "memory://" for an in-memory database. */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** PostgreSQL only: give up connecting after this long (default: wait as long as the server takes). */
  connectTimeoutMs?: number;
  /** PGlite only: start from this dump of a data directory (tests start from a migrated template). */
  loadDataDir?: Blob;
  /** PGlite only: PostgreSQL settings over the server's (`name=value`), for the benchmark's comparisons. */
  settings?: string[];
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.maxConnections ?? 10, options.connectTimeoutMs);
  return openPglite(options.dataDir ?? "./.data", options.loadDataDir, options.settings);
}

function openPostgres(url: string, max: number, connectTimeoutMs?: number): Database {
  // Pipelined clients write a query without waiting for the answers to those before it. Code that awaits
  // each query behaves as before; the ingestion write (SqlDatabase.batch) sends its whole transaction at once.
  const pool = new pg.Pool({ connectionString: url, max, pipeline: true, ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}) });
  // An idle client erroring (server restart) must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  // Each pooled connection by its server backend's pid: a transaction finds its own connection by asking
  // the server which backend it runs on, whatever order concurrent transactions check connections out in.
  const byBackend = new Map<number, pg.PoolClient>();
  pool.on("connect", (client) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid) byBackend.set(pid, client as pg.PoolClient);
    // Named statements are planned for their parameters on every run, never with a cached generic plan: a
    // generic plan made while the tables were small (a new database, or one whose statistics autovacuum has
    // not gathered yet) kept scanning every row of an organization once they had grown (docs/scaling.md).
    // Queued before anything else the client runs.
    client.query("SET plan_cache_mode = force_custom_plan").catch(() => undefined);
  });
  pool.on("remove", (client) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid && byBackend.get(pid) === client) byBackend.delete(pid);
  });
  const sql = createPgSql(pool);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const u = new URL(url);
  return {
    prisma,
    sql,
    kind: sql.kind,
    transaction: (fn, options) =>
      prisma.$transaction(
        async (tx) => {
          const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          const connection = byBackend.get(Number(row?.pid));
          if (!connection) throw new Error("db.transaction: the transaction's connection is not one of the pool's");
          return fn({ prisma: tx, sql: pgSqlClient(connection) });
        },
        { ...DEFAULT_TRANSACTION, ...options },
      ),
    location: `postgresql://${u.host}${u.pathname}`,
    async close() {
      await prisma.$disconnect();
      await sql.close();
    },
  };
}

/**
 * On PGlite, `db.transaction` lets Prisma open the transaction (so `tx.prisma` is Prisma's own transaction
 * client) and catches the PGlite transaction it starts; the SQL half runs on it. PGlite runs one transaction
 * at a time, so the catch (scoped by AsyncLocalStorage) cannot mix transactions up. On PostgreSQL the same
 * catch on the pool's `connect` did mix concurrent transactions up (Prisma checks connections out outside
 * the caller's async context), so there the transaction asks the server for its backend pid instead.
 */
const opening = new AsyncLocalStorage<(connection: unknown) => void>();

/** Wraps the PGlite instance (its `transaction`) that Prisma's adapter opens transactions with. */
function capturingConnections<T extends object>(target: T, method: "transaction"): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value = Reflect.get(obj, prop, obj);
      if (typeof value !== "function") return value;
      if (prop !== method) return value.bind(obj);
      return (callback: (tx: unknown) => Promise<unknown>, ...rest: unknown[]) =>
        value.call(obj, (tx: unknown) => {
          opening.getStore()?.(tx);
          return callback(tx);
        }, ...rest);
    },
  });
}

// No limits in practice: a transaction waits for a connection as long as the pool makes it, and runs as long
// as its work takes (a grading write waits on row locks; pg-boss inserts run inside).
const DEFAULT_TRANSACTION: Required<TransactionOptions> = { maxWait: 60_000, timeout: 600_000 };

function transactionOf(prisma: InstanceType<typeof PrismaClient>, sqlOf: (connection: unknown) => SqlClient): Database["transaction"] {
  return (fn, options) => {
    let connection: unknown;
    return opening.run(
      (c) => void (connection ??= c),
      () =>
        prisma.$transaction(
          (tx) => {
            if (connection === undefined) throw new Error("db.transaction: the transaction's connection was not caught");
            return fn({ prisma: tx, sql: sqlOf(connection) });
          },
          { ...DEFAULT_TRANSACTION, ...options },
        ),
    );
  };
}

/**
 * PGlite's WebAssembly heap never shrinks, and PostgreSQL's default 128 MB of shared buffers ends up
 * fully inside it. The embedded database reads its pages from the OS page cache anyway, so a small pool
 * keeps the process light for little speed: with 16 MB the server's peak RSS under the sustained
 * benchmark was 575 MB (621 with 32 MB), 586 MB with a 10,000-span trace (610), 541 MB with 8 MB
 * requests, and CPU per span within the run-to-run spread (bench/README.md).
 */
const PGLITE_SETTINGS = [
  "shared_buffers=16MB",
  // What a vacuum (pglite-worker.mjs) or an index build may allocate, inside that heap: PostgreSQL's 64 MB
  // default would stay in it after the first large one.
  "maintenance_work_mem=16MB",
];

/**
 * Creates a new data directory (PostgreSQL's initdb) on a thread of its own that then ends. PGlite runs
 * initdb in two more WebAssembly instances beside the database's own, and their ~500 MB stayed in the
 * process, since WebAssembly memory is given back only when garbage collection finds it unreachable, which
 * an idle server's thread may never do: the first start of a server on a new directory sat at ~800 MB,
 * against ~300 MB for the same server started again on it (bench/README.md, "The embedded database's
 * ceiling with 8 MB bodies"). Ending the thread frees all of it at once; the database's thread then opens
 * the directory as on any later start.
 */
async function initDataDir(dir: string, startParams: string[]): Promise<void> {
  const thread = await PgliteThread.open({ dataDir: dir, startParams });
  await thread.close();
}

/** A data directory other users could read or change is restricted to its owner, and that is logged. */
function tightenExisting(dir: string): void {
  const changed = tightenDataDir(dir);
  if (changed > 0) {
    logger.warn("restricted the embedded database's folder to its owner: other users could read or change it", { dataDir: dir, entries: changed });
  }
}

async function openPglite(dataDir: string, loadDataDir?: Blob, settings: string[] = []): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  const dir = path.resolve(dataDir);
  const releaseLock = inMemory ? () => undefined : lockDataDir(dir);
  const startParams = [...PGlite.defaultStartParams, ...[...PGLITE_SETTINGS, ...settings].flatMap((s) => ["-c", s])];
  let pglite: PgliteThread | undefined;
  try {
    if (!inMemory) tightenExisting(dir);
    if (!inMemory && !loadDataDir && !fs.existsSync(path.join(dir, "PG_VERSION"))) await initDataDir(dir, startParams);
    pglite = await PgliteThread.open({ dataDir: inMemory ? undefined : dir, loadDataDir, startParams });
    // PGlite's first start copies initdb's files at 0666, and every start rewrites its relation cache files.
    if (!inMemory) tightenDataDir(dir);
  } catch (error) {
    await pglite?.close();
    releaseLock();
    throw error;
  }
  const sql = createPgliteSql(pglite);
  // The adapter calls query, exec and transaction, which the thread's stand-in answers as PGlite does.
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(capturingConnections(pglite as unknown as PGlite, "transaction")) });
  return {
    prisma,
    sql,
    kind: sql.kind,
    transaction: transactionOf(prisma, (connection) => pgliteSqlClient(connection as TPgliteQueryable)),
    location: inMemory ? "PGlite (in memory)" : `PGlite at ${dir}`,
    memoryBytes: () => pglite.memoryBytes(),
    ...(inMemory ? {} : { copyDataDir: (to: string) => pglite.copyDataDir(to) }),
    async close() {
      await prisma.$disconnect();
      await sql.close();
      releaseLock();
    },
  };
}
