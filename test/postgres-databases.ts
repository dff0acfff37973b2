// Test databases on PostgreSQL or a Citus cluster: a new database per test file (on every node of a cluster). No
// vitest import, so global setups (test/system/shared-server.ts) use it too; test/harness.ts re-exports it.
import { randomUUID } from "node:crypto";
import pg from "pg";

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
 * Runs `fn` again when it fails with an error matching `retryOn`, up to `attempts` times `delayMs` apart. By default
 * when the coordinator could not reach a worker: with test files creating and dropping databases on every node at
 * once, a worker's connection is now and then refused while it is busy ("failure on connection marked as essential").
 */
async function withRetries<T>(fn: () => Promise<T>, { retryOn = /connection/i, attempts = 3, delayMs = 1000 } = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts || !retryOn.test(String((error as Error).message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

/** PostgreSQL's refusal to copy or drop a database while a session is still on it (or still leaving or arriving). */
const stillAccessed = { retryOn: /being accessed by other users/, attempts: 20, delayMs: 250 };

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
export async function createEmptyPostgresDatabase(
  base: string = testDatabaseUrl(),
  citus: boolean = onCitus,
  prefix = "reprise_test",
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const workers = citus ? (await citusWorkers(base)).map((node) => nodeUrl(base, node)) : [];
  const servers = [base, ...workers];
  await Promise.all(servers.map((server) => withClient(server, (c) => c.query(`CREATE DATABASE ${name}`))));
  if (citus) {
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
  return { url: withDatabase(base, name), drop: dropper(servers, name) };
}

/**
 * Drops the database on every node. On a Citus node a session can still be arriving (a coordinator's connection to a
 * worker, the maintenance daemon) as FORCE ends the others: the drop is then refused as "being accessed by other
 * users", and tried again a moment later.
 */
function dropper(servers: string[], name: string): () => Promise<void> {
  return async () => {
    await Promise.all(servers.map((server) => withClient(server, (c) => withRetries(() => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`), stillAccessed))));
  };
}

/**
 * Turns a migrated database made by createEmptyPostgresDatabase into a template for cloneTemplateDatabase: every
 * session on it is ended on every node (a Citus node's maintenance daemon among them: it exits for good on a
 * terminate and is started again only by a session in that database, which a template no longer gets), since
 * PostgreSQL copies a database only while nobody is connected to it.
 */
export async function sealTemplateDatabase(name: string, base: string = testDatabaseUrl(), citus: boolean = onCitus): Promise<void> {
  const workers = citus ? (await citusWorkers(base)).map((node) => nodeUrl(base, node)) : [];
  await Promise.all([base, ...workers].map((server) => withClient(server, async (c) => {
    await c.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
  })));
}

/**
 * A new database copied from a template sealed by sealTemplateDatabase (on every node of a Citus cluster, under the
 * same name, so the coordinator's shard metadata finds its shards in the workers' copies): a test file's migrated
 * database in ~0.1 s instead of running every migration (and on Citus distributing every table) again.
 */
export async function cloneTemplateDatabase(
  template: string,
  base: string = testDatabaseUrl(),
  citus: boolean = onCitus,
  prefix = "reprise_test",
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const workers = citus ? (await citusWorkers(base)).map((node) => nodeUrl(base, node)) : [];
  const servers = [base, ...workers];
  // PostgreSQL refuses a copy while a session is still leaving the template ("being accessed by other users"):
  // a terminated session can take a moment to go.
  await Promise.all(servers.map((server) => withClient(server, (c) => withRetries(() => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`), stillAccessed))));
  return { url: withDatabase(base, name), drop: dropper(servers, name) };
}

