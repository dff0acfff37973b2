// Integration-test harness: a fresh database per test file (PGlite in memory, a new PostgreSQL database when
// REPRISE_TEST_DB=postgres, or a new database on every node of a Citus cluster when REPRISE_TEST_DB=citus),
// route handlers called in-process with real Requests.
import { randomUUID } from "node:crypto";
import zlib from "node:zlib";
import pg from "pg";
import fs from "node:fs";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, type Database } from "../server/db/client.ts";
import { migrate } from "../server/db/migrator.ts";
import { setDb } from "../server/db.ts";
import { createOrganization } from "../server/auth/auth.service.ts";

/** The integration tests' database: PGlite (default), PostgreSQL, or a Citus cluster's coordinator. */
export const onCitus = process.env.REPRISE_TEST_DB === "citus";
/** A PostgreSQL server (a Citus coordinator is one too): a database per test file, real concurrent connections. */
export const onPostgres = process.env.REPRISE_TEST_DB === "postgres" || onCitus;

export function testDatabaseUrl(): string {
  const url = onCitus ? process.env.TEST_CITUS_URL : (process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL);
  if (!url) throw new Error(onCitus ? "REPRISE_TEST_DB=citus needs TEST_CITUS_URL (scripts/citus-cluster.mjs starts a cluster)" : "REPRISE_TEST_DB=postgres needs TEST_DATABASE_URL");
  return url;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Runs `fn` again (up to three times, a second apart) when the coordinator could not reach a worker: with test
 * files creating and dropping databases on every node at once, a worker's connection is now and then refused
 * while it is busy ("failure on connection marked as essential").
 */
async function withRetries<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= 3 || !/connection/i.test(String((error as Error).message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A Citus cluster's nodes as the coordinator's maintenance database registers them. Citus keeps its metadata
 * per database, so a new database is created on every node, gets the extension on every node, and has the
 * workers registered again on the coordinator.
 */
async function citusWorkers(coordinatorUrl: string): Promise<{ host: string; port: number }[]> {
  return withClient(coordinatorUrl, async (c) => {
    const { rows } = await c.query<{ nodename: string; nodeport: number }>(
      "SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' AND isactive ORDER BY nodeid",
    );
    return rows.map((r) => ({ host: r.nodename, port: r.nodeport }));
  });
}

function nodeUrl(coordinatorUrl: string, node: { host: string; port: number }): string {
  const u = new URL(coordinatorUrl);
  u.hostname = node.host;
  u.port = String(node.port);
  return u.toString();
}

/** Creates an empty database on the test server (on every node of a Citus cluster); returns its URL and a dropper. */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = testDatabaseUrl();
  const name = `reprise_test_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const workers = onCitus ? (await citusWorkers(base)).map((node) => nodeUrl(base, node)) : [];
  const servers = [base, ...workers];
  await Promise.all(servers.map((server) => withClient(server, (c) => c.query(`CREATE DATABASE ${name}`))));
  if (onCitus) {
    await Promise.all(servers.map((server) => withClient(withDatabase(server, name), (c) => c.query("CREATE EXTENSION citus"))));
    await withClient(withDatabase(base, name), async (c) => {
      const coordinator = new URL(base);
      await c.query("SELECT citus_set_coordinator_host($1, $2)", [coordinator.hostname, Number(coordinator.port || 5432)]);
      for (const worker of workers) {
        const u = new URL(worker);
        await withRetries(() => c.query("SELECT citus_add_node($1, $2)", [u.hostname, Number(u.port || 5432)]));
      }
    });
  }
  return {
    url: withDatabase(base, name),
    drop: async () => {
      await Promise.all(servers.map((server) => withClient(server, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))));
    },
  };
}

/** The migrated PGlite data directory made once per run by test/global-setup.ts, if there is one. */
async function pgliteTemplate(): Promise<Blob | undefined> {
  const file = inject("pgliteTemplatePath");
  if (!file) return undefined;
  return new Blob([await fs.promises.readFile(file)]);
}

/** A migrated, empty database for one test file. */
export async function createTestDatabase(): Promise<Database> {
  if (onPostgres) {
    const { url, drop } = await createEmptyPostgresDatabase();
    const db = await openDatabase({ url, maxConnections: 10 });
    await migrate(db.sql);
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
