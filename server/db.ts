// The process-wide database. Kept on globalThis because Next.js bundles route handlers and
// instrumentation separately; they must share one pool (and PGlite allows one opener per data dir).
import { getEnv } from "./env.ts";
import { openDatabase, type Database } from "./db/client.ts";
import { openReadReplica, type TReadReplica } from "./db/read-replica.ts";

const KEY = Symbol.for("reprise.database");
type Holder = { [KEY]?: Promise<Database> };
const holder = globalThis as unknown as Holder;

export function getDb(): Promise<Database> {
  if (!holder[KEY]) {
    const env = getEnv();
    holder[KEY] = openDatabase({ url: env.DATABASE_URL, dataDir: env.REPRISE_DATA_DIR });
    holder[KEY].catch(() => {
      holder[KEY] = undefined;
    });
  }
  return holder[KEY];
}

/** Tests point the app at their own database. */
export function setDb(db: Database | undefined): void {
  holder[KEY] = db ? Promise.resolve(db) : undefined;
}

export type { Database };

const REPLICA_KEY = Symbol.for("reprise.readReplica");
type ReplicaHolder = { [REPLICA_KEY]?: Promise<TReadReplica | undefined> };
const replicaHolder = globalThis as unknown as ReplicaHolder;

/** The console's read replica (DATABASE_READ_URL), or undefined when none is configured. */
export function getReadReplica(): Promise<TReadReplica | undefined> {
  if (!replicaHolder[REPLICA_KEY]) {
    const env = getEnv();
    replicaHolder[REPLICA_KEY] = env.DATABASE_URL && env.DATABASE_READ_URL ? openReadReplica(env.DATABASE_READ_URL) : Promise.resolve(undefined);
  }
  return replicaHolder[REPLICA_KEY];
}

/** Tests point the console at their own replica (or none). */
export function setReadReplica(replica: TReadReplica | undefined): void {
  replicaHolder[REPLICA_KEY] = Promise.resolve(replica);
}
