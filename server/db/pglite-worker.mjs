// The embedded database's own thread (server/db/pglite-thread.ts starts it; docs/architecture.md, "Database
// access"). PGlite runs PostgreSQL compiled to WebAssembly on the thread that calls it: here, so that its
// work (planning, executing, writing pages and WAL to disk) runs beside the server's request handling
// instead of between its requests. Plain JavaScript because Node loads it directly in a worker thread,
// outside the Next.js bundle and before any TypeScript loader.
//
// Requests from the server's thread, each with an `id` answered once by `{ id, result }` or `{ id, error }`:
//   { op: "query", tx?, text, params, rowMode?, rawTypes? }  PGlite's query; a transaction's when `tx` is set.
//     rawTypes: type OIDs whose values come back as PostgreSQL's text (the caller parses them itself).
//   { op: "exec", tx?, text }                                 PGlite's exec.
//   { op: "begin", tx }                                        opens transaction `tx`; answered once BEGIN ran.
//   { op: "rollback", tx }                                     the transaction's rollback().
//   { op: "end", tx, commit }                                  commits (or rolls back) and closes it.
//   { op: "batch", statements: [{ text, params }] }          runs them in order in one transaction; answers
//                                                              with each one's rows, or the first error
//                                                              (the transaction then rolled back).
//   { op: "close" }                                            closes the database.
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

async function query(m) {
  const parsers = m.rawTypes ? Object.fromEntries(m.rawTypes.map((oid) => [oid, (text) => text])) : undefined;
  return target(m.tx).query(m.text, m.params, { rowMode: m.rowMode, parsers });
}

/** A batch's statements in one transaction, in one message each way instead of one per statement. */
function batch(statements) {
  return db.transaction(async (tx) => {
    const rows = [];
    for (const { text, params } of statements) rows.push((await tx.query(text, params)).rows);
    return rows;
  });
}

parentPort.on("message", async (m) => {
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
      case "close":
        if (!db.closed) await db.close();
        return reply(m.id, null);
      default:
        throw new Error(`unknown request ${m.op}`);
    }
  } catch (error) {
    fail(m.id, error);
  }
});
