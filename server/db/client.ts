// Opens the database: PostgreSQL through the pg pool when a URL is given, else embedded PGlite.
// Prisma (CRUD) and the raw SQL client (hot path, migrator) share one pool or one PGlite instance.
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { createPgliteSql, createPgSql, type SqlDatabase } from "./sql.ts";

export type Prisma = InstanceType<typeof PrismaClient>;

export interface Database {
  prisma: Prisma;
  sql: SqlDatabase;
  /** Human-readable description of where data lives, for logs (never includes a password). */
  location: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgresql://… ; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; "memory://" for an in-memory database. */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** PGlite only: start from this dump of a data directory (tests start from a migrated template). */
  loadDataDir?: Blob;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.maxConnections ?? 10);
  return openPglite(options.dataDir ?? "./.data", options.loadDataDir);
}

function openPostgres(url: string, max: number): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client erroring (server restart) must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  const sql = createPgSql(pool);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const u = new URL(url);
  return {
    prisma,
    sql,
    location: `postgresql://${u.host}${u.pathname}`,
    async close() {
      await prisma.$disconnect();
      await sql.close();
    },
  };
}

/**
 * PGlite's WebAssembly heap never shrinks, and PostgreSQL's default 128 MB of shared buffers ends up
 * fully inside it. The embedded database reads its pages from the OS page cache anyway, so a smaller
 * pool keeps the process ~100 MB lighter (issue 3: < 600 MB RSS under 8 MB requests) for little speed.
 */
const PGLITE_SHARED_BUFFERS = "32MB";

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  const releaseLock = inMemory ? () => undefined : lockDataDir(path.resolve(dataDir));
  const options = { loadDataDir, startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`] };
  const pglite = inMemory ? new PGlite(options) : new PGlite(path.resolve(dataDir), options);
  await pglite.waitReady;
  const sql = createPgliteSql(pglite);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    sql,
    location: inMemory ? "PGlite (in memory)" : `PGlite at ${path.resolve(dataDir)}`,
    async close() {
      await prisma.$disconnect();
      await sql.close();
      releaseLock();
    },
  };
}
