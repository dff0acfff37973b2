// Integration-test harness: a fresh database per test file (PGlite in memory, a new PostgreSQL database when
// REPRISE_TEST_DB=postgres, or a new database on every node of a Citus cluster when REPRISE_TEST_DB=citus),
// route handlers called in-process with real Requests.
import { randomUUID } from "node:crypto";
import zlib from "node:zlib";
import fs from "node:fs";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, type Database } from "../server/db/client.ts";
import { migrate } from "../server/db/migrator.ts";
import { setDb } from "../server/db.ts";
import { createOrganization } from "../server/auth/auth.service.ts";

export { onCitus, onPostgres, testDatabaseUrl, createEmptyPostgresDatabase } from "./postgres-databases.ts";
import { onPostgres, createEmptyPostgresDatabase, cloneTemplateDatabase } from "./postgres-databases.ts";

/** The migrated PGlite data directory made once per run by test/global-setup.ts, if there is one. */
async function pgliteTemplate(): Promise<Blob | undefined> {
  const file = inject("pgliteTemplatePath");
  if (!file) return undefined;
  return new Blob([await fs.promises.readFile(file)]);
}

/**
 * A new migrated, empty PostgreSQL database (every node of a Citus cluster): a copy of the run's template
 * (test/global-setup.ts) when there is one, else an empty database the caller migrates.
 */
export async function createMigratedPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = inject("postgresTemplate");
  return template ? cloneTemplateDatabase(template) : createEmptyPostgresDatabase();
}

/** A migrated, empty database for one test file. */
export async function createTestDatabase(): Promise<Database> {
  if (onPostgres) {
    const { url, drop } = await createMigratedPostgresDatabase();
    const db = await openDatabase({ url, maxConnections: 10 });
    await migrate(db.sql); // a no-op on a copy of the template; migrates a database made without one
    const close = db.close;
    return { ...db, close: async () => { await close(); await drop(); } };
  }
  const db = await openDatabase({ dataDir: "memory://", loadDataDir: await pgliteTemplate() });
  await migrate(db.sql); // a no-op on the migrated template; keeps a stale template from going unnoticed
  return db;
}

/**
 * Registers beforeAll/afterAll that give the file a fresh database and point the app at it.
 * Returns a getter (the database exists only once beforeAll ran).
 */
export function useTestDatabase(): () => Database {
  let db: Database | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    setDb(db);
  });
  afterAll(async () => {
    setDb(undefined);
    await db?.close();
  });
  return () => {
    if (!db) throw new Error("the test database is not ready (call inside a test or hook)");
    return db;
  };
}

export interface TestOrg {
  organizationId: string;
  userId: string;
  apiKey: string;
  email: string;
}

export async function createTestOrg(db: Database, name = "Test org"): Promise<TestOrg> {
  const email = `user-${randomUUID()}@example.com`;
  const created = await createOrganization(db, { name, email, password: "correct horse battery" });
  return { ...created, email };
}

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  path?: string;
  apiKey?: string | null;
  headers?: Record<string, string>;
  /** JSON-serialised unless it is a Buffer/string. */
  body?: unknown;
  /** Compress the body with this encoding (sets Content-Encoding). */
  encoding?: "gzip" | "x-gzip" | "deflate";
  params?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  raw: Buffer;
}

/** Calls a route handler in-process with a real Request, like Hono's app.request. */
export async function call<T = any>(handler: Handler, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let body: Buffer | undefined;
  if (options.body !== undefined) {
    body = Buffer.isBuffer(options.body)
      ? options.body
      : Buffer.from(typeof options.body === "string" ? options.body : JSON.stringify(options.body));
    headers["content-type"] ??= "application/json";
  }
  if (body && options.encoding) {
    body = options.encoding === "deflate" ? zlib.deflateSync(body) : zlib.gzipSync(body);
    headers["content-encoding"] = options.encoding;
  }
  const method = options.method ?? (body ? "POST" : "GET");
  const request = new Request(`http://reprise.test${options.path ?? "/"}`, { method, headers, body: body ? new Uint8Array(body) : undefined });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const raw = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get("content-type") ?? "";
  const parsed = type.includes("json") && raw.length > 0 ? JSON.parse(raw.toString("utf8")) : raw;
  return { status: response.status, headers: response.headers, body: parsed as T, raw };
}
