// The embedded database's own thread (server/db/pglite-thread.ts starts it; docs/architecture.md, "Database
// access"). PGlite runs PostgreSQL compiled to WebAssembly on the thread that calls it: here, so that its
// work (planning, executing, writing pages and WAL to disk) runs beside the server's request handling
// instead of between its requests. Plain JavaScript because Node loads it directly in a worker thread,
// outside the Next.js bundle and before any TypeScript loader.
//
// Requests from the server's thread, each with an `id` answered once by `{ id, result }` or `{ id, error }`:
//   { op: "query", tx?, text, params, encoded?, rowMode?, rawTypes? }
//                                                             PGlite's query; a transaction's when `tx` is set.
//     encoded: positions of params sent as the UTF-8 bytes of a string (see withEncoded).
//     rawTypes: type OIDs whose values come back as PostgreSQL's text (the caller parses them itself).
//   { op: "exec", tx?, text }                                 PGlite's exec.
//   { op: "begin", tx }                                        opens transaction `tx`; answered once BEGIN ran.
//   { op: "rollback", tx }                                     the transaction's rollback().
//   { op: "end", tx, commit }                                  commits (or rolls back) and closes it.
//   { op: "batch", statements: [{ text, params, encoded? }] }
//                                                             runs them in order in one transaction; answers
//                                                             with each one's rows, or the first error (the
//                                                             transaction then rolled back).
//   { op: "copy", to }                                         copies the data directory's files to the new folder
//                                                             `to` (owner-only): a consistent copy (see copyDataDir).
//   { op: "memory" }                                           the size of the database's WebAssembly memory, in bytes.
//   { op: "close" }                                            closes the database.
//
// While no request has come for a second, the thread vacuums the tables that grew (see vacuumIdle).
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, messages } from "@electric-sql/pglite";

const { dataDir, loadDataDir, startParams } = workerData;
const options = { startParams, ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}) };

/** What crosses back to the server's thread for an error: its message and PostgreSQL's fields. */
function serializeError(error) {
  if (!(error instanceof Error)) return { message: String(error), database: false, fields: {} };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function") continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  }
  return { message: error.message, database: error instanceof messages.DatabaseError, fields };
}

const reply = (id, result) => parentPort.postMessage({ id, result });
const fail = (id, error) => parentPort.postMessage({ id, error: serializeError(error) });

let db;
try {
  db = typeof dataDir === "string" ? new PGlite(dataDir, options) : new PGlite(options);
  await db.waitReady;
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ ready: false, error: serializeError(error) });
  process.exit(1);
}

/** Open transactions by id: PGlite's transaction object and how to end its callback. */
const transactions = new Map();
const ABANDONED = new Error("transaction rolled back by its caller");

function target(tx) {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

function begin(id, tx) {
  const open = { tx: undefined, end: undefined };
  transactions.set(tx, open);
  open.settled = db.transaction(
    (t) =>
      new Promise((resolve, reject) => {
        open.tx = t;
        open.end = (commit) => (commit ? resolve() : reject(ABANDONED));
        reply(id, null);
      }),
  );
  // BEGIN itself failed: the callback never ran, so the caller is still waiting for this answer.
  open.settled.catch((error) => {
    if (open.tx === undefined) {
      transactions.delete(tx);
      fail(id, error);
    }
  });
}

async function end(tx, commit) {
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  transactions.delete(tx);
  open.end(commit);
  try {
    await open.settled;
  } catch (error) {
    if (error !== ABANDONED) throw error;
  }
}

/** A string parameter that arrived as its UTF-8 bytes. */
class Encoded {
  constructor(bytes) {
    this.bytes = bytes;
  }
  /** The string again, for a parameter whose type does not read text as it is (PGlite calls toString). */
  toString() {
    return decoder.decode(this.bytes);
  }
}
const decoder = new TextDecoder();

// PostgreSQL's binary input of these types is the text's bytes as they are (jsonb's after a version byte),
// and PGlite sends a parameter in binary format when its serializer returns bytes.
const TEXT = 25;
const JSON_OID = 114;
const JSONB = 3802;
const JSONB_VERSION = 1;

/** Serializers per type OID that pass Encoded parameters on as bytes where the type allows, PGlite's own otherwise. */
const serializers = new Proxy(
  {},
  {
    get(_, key) {
      const oid = Number(key);
      const own = db.serializers[oid];
      return (value) => {
        if (!(value instanceof Encoded)) return own ? own(value) : value.toString();
        if (oid === TEXT || oid === JSON_OID) return value.bytes;
        if (oid === JSONB) {
          const bytes = new Uint8Array(value.bytes.byteLength + 1);
          bytes[0] = JSONB_VERSION;
          bytes.set(value.bytes, 1);
          return bytes;
        }
        const text = value.toString();
        return own ? own(text) : text;
      };
    },
  },
);

/** The params with those at `encoded` positions wrapped as Encoded. */
function withEncoded(params, encoded) {
  if (!encoded) return params;
  const out = params.slice();
  for (const index of encoded) out[index] = new Encoded(out[index]);
  return out;
}

function run(on, m) {
  const parsers = m.rawTypes ? Object.fromEntries(m.rawTypes.map((oid) => [oid, (text) => text])) : undefined;
  return on.query(m.text, withEncoded(m.params, m.encoded), { rowMode: m.rowMode, parsers, ...(m.encoded ? { serializers } : {}) });
}

function query(m) {
  return run(target(m.tx), m);
}

/** A batch's statements in one transaction, in one message each way instead of one per statement. */
function batch(statements) {
  return db.transaction(async (tx) => {
    const rows = [];
    for (const statement of statements) rows.push((await run(tx, statement)).rows);
    return rows;
  });
}

/**
 * Copies the data directory's files while nothing else runs on this thread: PostgreSQL writes a change to its
 * write-ahead log before the pages it changes, so the copy is the state a crash at this instant would leave, which
 * PGlite recovers on opening it, as PostgreSQL recovers from a crash. The files are read synchronously, so no
 * statement runs halfway through the copy. Only folders and regular files go (not the control channel's socket);
 * the lock files stay behind, so the copy opens as a directory of its own.
 */
function copyDataDir(to) {
  if (typeof dataDir !== "string") throw new Error("an in-memory database has no data directory to copy");
  const skipped = new Set(["reprise.pid", "postmaster.pid"]);
  fs.mkdirSync(to, { mode: 0o700 });
  fs.cpSync(dataDir, to, {
    recursive: true,
    filter: (from) => {
      const stat = fs.lstatSync(from);
      return (stat.isDirectory() || stat.isFile()) && !skipped.has(from.split("/").pop());
    },
  });
  return null;
}

/**
 * The embedded database's autovacuum. PGlite runs PostgreSQL in single-user mode, without the autovacuum
 * workers a server starts, so nothing ever marked its tables' pages all-visible (an index-only scan then still
 * reads every row's heap page: the trace page's read of a 100,000-span trace, docs/api/console.md, "Trace page")
 * nor reclaimed the row versions updates leave behind. Once no request has come for IDLE_MS and no transaction is
 * open, each table that grew by VACUUM_GROWTH_BYTES since this thread last vacuumed it (or since it started, so a
 * start never reads a large database whole) is vacuumed and analyzed. A pass reads only the pages not yet
 * all-visible; requests that come meanwhile wait for it, as they wait for any statement on this thread. Never
 * under sustained load, which leaves no idle second: the pass then waits for the load to stop.
 */
const IDLE_MS = 1000;
const VACUUM_GROWTH_BYTES = 16 * 2 ** 20;
let lastRequestAt = Date.now();
let running = 0;
let vacuuming = false;
/** Each table's size when this thread last vacuumed it, or first saw it. */
const vacuumedAt = new Map();

const TABLE_SIZES = `SELECT format('%I.%I', n.nspname, c.relname) AS name, pg_relation_size(c.oid)::float8 AS size
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`;

/** The sizes the thread starts from: a start never reads a large database whole. */
async function startVacuuming() {
  for (const { name, size } of (await db.query(TABLE_SIZES)).rows) vacuumedAt.set(name, size);
  setInterval(() => void vacuumIdle(), IDLE_MS).unref();
}

async function vacuumIdle() {
  if (vacuuming || running > 0 || transactions.size > 0 || Date.now() - lastRequestAt < IDLE_MS || db.closed) return;
  vacuuming = true;
  try {
    const { rows } = await db.query(TABLE_SIZES);
    for (const { name, size } of rows) {
      // A table made since the thread started grew from nothing.
      const since = vacuumedAt.get(name) ?? 0;
      if (size < since) vacuumedAt.set(name, size);
      else if (size - since >= VACUUM_GROWTH_BYTES) {
        // A request arrived meanwhile: it goes first, the rest waits for the next idle second.
        if (running > 0 || transactions.size > 0 || db.closed) break;
        await db.query(`VACUUM (ANALYZE) ${name}`);
        vacuumedAt.set(name, size);
      }
    }
  } catch {
    // A table dropped meanwhile, or the database closing: the next idle second looks again.
  } finally {
    vacuuming = false;
  }
}
parentPort.on("message", async (m) => {
  lastRequestAt = Date.now();
  running++;
  try {
    switch (m.op) {
      case "query":
        return reply(m.id, await query(m));
      case "exec":
        return reply(m.id, await target(m.tx).exec(m.text));
      case "begin":
        return begin(m.id, m.tx);
      case "rollback":
        return reply(m.id, await target(m.tx).rollback());
      case "end":
        return reply(m.id, await end(m.tx, m.commit));
      case "batch":
        return reply(m.id, await batch(m.statements));
      case "copy":
        return reply(m.id, copyDataDir(m.to));
      case "memory":
        return reply(m.id, db.mod.HEAPU8.byteLength);
      case "close":
        if (!db.closed) await db.close();
        return reply(m.id, null);
      default:
        throw new Error(`unknown request ${m.op}`);
    }
  } catch (error) {
    fail(m.id, error);
  } finally {
    running--;
    lastRequestAt = Date.now();
  }
});

// Its first statement, queued before any request since none has been read yet.
void startVacuuming().catch(() => undefined);
