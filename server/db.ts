// The process-wide database. Kept on globalThis because Next.js bundles route handlers and
// instrumentation separately; they must share one pool (and PGlite allows one opener per data dir).
import { getEnv } from "./env.ts";
import { openDatabase, type Database } from "./db/client.ts";

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
