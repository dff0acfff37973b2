// The embedded database on a thread of its own (docs/architecture.md, "Database access"). PGlite executes
// PostgreSQL on the thread that calls it; on the server's thread, every statement's planning, execution and
// disk writes ran between requests, so the one thread did the database's work and the server's in turn. Here
// PGlite runs in a worker thread (pglite-worker.mjs) and this object stands in for it: the same query, exec
// and transaction calls, so Prisma's adapter and our SQL client use it as they used PGlite.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { messages, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

export interface PgliteThreadOptions {
  /** A data directory, or undefined for an in-memory database. */
  dataDir?: string;
  /** Start from this dump of a data directory. */
  loadDataDir?: Blob;
  startParams: string[];
}

/** Where the worker's script is: beside this file in the source tree, which the server runs from (as migrations). */
const WORKER_SCRIPT = path.resolve(process.cwd(), "server", "db", "pglite-worker.mjs");

interface TSerializedError {
  message: string;
  database: boolean;
  fields: Record<string, unknown>;
}

type TAnswer = { id: number; result?: unknown; error?: TSerializedError };

/**
 * Text parameters at least this long cross to the thread as UTF-8 bytes, moved rather than copied, and reach
 * PostgreSQL in binary format where their type reads text as it is (text, json, jsonb): PGlite would
 * otherwise measure and encode each one in JavaScript on the database's thread, which under ingestion
 * was ~15% of that thread's work (bench/README.md, "Session 8").
 */
const ENCODE_PARAMS_FROM = 16_384;
const encoder = new TextEncoder();

/** The params as sent: long strings replaced by their bytes, whose positions `encoded` lists. */
function encodeParams(params: unknown[] | undefined, transfer: ArrayBuffer[]): { params?: unknown[]; encoded?: number[] } {
  if (!params) return { params };
  let encoded: number[] | undefined;
  const sent = params.map((value, index) => {
    if (typeof value !== "string" || value.length < ENCODE_PARAMS_FROM) return value;
    const bytes = encoder.encode(value);
    transfer.push(bytes.buffer as ArrayBuffer);
    (encoded ??= []).push(index);
    return bytes;
  });
  return encoded ? { params: sent, encoded } : { params };
}

/** The thread's error as the caller's: a PostgreSQL error stays a DatabaseError with its code and fields. */
function toError(e: TSerializedError): Error {
  const error = e.database ? new messages.DatabaseError(e.message, 0, "error") : new Error(e.message);
  return Object.assign(error, e.fields, { message: e.message });
}

export class PgliteThread {
  #worker: Worker;
  #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #nextId = 0;
  #nextTransaction = 0;
  #closed = false;
  #broken: Error | undefined;

  /** Starts the thread and opens the database in it; resolves once it is ready. */
  static async open(options: PgliteThreadOptions): Promise<PgliteThread> {
    // A dump goes over as its bytes (moved, not copied): a worker is not given Blobs.
    const loadDataDir = options.loadDataDir ? new Uint8Array(await options.loadDataDir.arrayBuffer()) : undefined;
    const worker = new Worker(WORKER_SCRIPT, {
      workerData: { dataDir: options.dataDir, startParams: options.startParams, loadDataDir },
      transferList: loadDataDir ? [loadDataDir.buffer as ArrayBuffer] : [],
    });
    // Named listeners, removed one by one: a Worker's removeAllListeners() also drops its own hooks and
    // stops it delivering messages.
    let onMessage!: (m: { ready: boolean; error?: TSerializedError }) => void;
    let onError!: (error: Error) => void;
    let onExit!: (code: number) => void;
    try {
      await new Promise<void>((resolve, reject) => {
        onMessage = (m) => (m.ready ? resolve() : reject(toError(m.error!)));
        onError = reject;
        onExit = (code) => reject(new Error(`the embedded database's thread exited (code ${code}) before it was ready`));
        worker.once("message", onMessage).once("error", onError).once("exit", onExit);
      });
    } catch (error) {
      await worker.terminate();
      throw error;
    } finally {
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
    }
    return new PgliteThread(worker);
  }

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on("message", (m: TAnswer) => this.#answer(m));
    worker.on("error", (error) => this.#fail(error));
    worker.on("exit", (code) => this.#fail(new Error(`the embedded database's thread exited (code ${code})`)));
    worker.unref();
  }

  #answer(m: TAnswer) {
    const waiting = this.#pending.get(m.id);
    if (!waiting) return;
    this.#pending.delete(m.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (m.error) waiting.reject(toError(m.error));
    else waiting.resolve(m.result);
  }

  /** The thread died (it should not): every waiting call fails, and so does every later one. */
  #fail(error: Error) {
    this.#broken ??= error;
    for (const waiting of this.#pending.values()) waiting.reject(error);
    this.#pending.clear();
  }

  #call<T>(request: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.#broken && !this.#closed) return Promise.reject(this.#broken);
    if (this.#closed) return Promise.reject(new Error("PGlite is closed"));
    const id = ++this.#nextId;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // Keeps the process alive while an answer is due, not longer.
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage({ ...request, id }, transfer);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  async query<T>(text: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    if (options?.serializers) throw new Error("PgliteThread: custom serializers are not supported");
    const parsers = options?.parsers;
    const rawTypes = parsers ? Object.keys(parsers).map(Number) : undefined;
    const transfer: ArrayBuffer[] = [];
    const sent = encodeParams(params, transfer);
    const result = await this.#call<Results<T>>({ op: "query", tx, text, ...sent, rowMode: options?.rowMode, rawTypes }, transfer);
    if (parsers) parseColumns(result, parsers);
    return result;
  }

  async exec(text: string, _options?: QueryOptions, tx?: number): Promise<Results[]> {
    return this.#call<Results[]>({ op: "exec", tx, text });
  }

  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = ++this.#nextTransaction;
    await this.#call({ op: "begin", tx: id });
    const tx = new ThreadTransaction(this, id);
    let result: T;
    try {
      result = await callback(tx as unknown as Transaction);
    } catch (error) {
      tx.closed = true;
      await this.#call({ op: "end", tx: id, commit: false }).catch(() => undefined);
      throw error;
    }
    tx.closed = true;
    await this.#call({ op: "end", tx: id, commit: true });
    return result;
  }

  /** Runs the statements in order in one transaction on the thread: one message each way. */
  batch(statements: Array<{ text: string; params: unknown[] }>): Promise<unknown[][]> {
    const transfer: ArrayBuffer[] = [];
    const sent = statements.map(({ text, params }) => ({ text, ...encodeParams(params, transfer) }));
    return this.#call<unknown[][]>({ op: "batch", statements: sent }, transfer);
  }

  /** @internal ThreadTransaction's rollback. */
  rollbackOf(tx: number): Promise<void> {
    return this.#call({ op: "rollback", tx });
  }

  /** The size of the database's WebAssembly memory in bytes: it grows with what PostgreSQL allocates and never shrinks. */
  memoryBytes(): Promise<number> {
    return this.#call({ op: "memory" });
  }

  /** Copies the data directory into the new folder `to`: a consistent copy, which opens as a data directory. */
  copyDataDir(to: string): Promise<void> {
    return this.#call({ op: "copy", to });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    if (!this.#broken) await this.#call({ op: "close" });
    this.#closed = true;
    await this.#worker.terminate();
  }
}

class ThreadTransaction {
  closed = false;
  constructor(
    private readonly thread: PgliteThread,
    private readonly id: number,
  ) {}

  #check() {
    if (this.closed) throw new Error("Transaction is closed");
  }

  async query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    this.#check();
    return this.thread.query<T>(text, params, options, this.id);
  }

  async exec(text: string, options?: QueryOptions): Promise<Results[]> {
    this.#check();
    return this.thread.exec(text, options, this.id);
  }

  async rollback(): Promise<void> {
    this.#check();
    await this.thread.rollbackOf(this.id);
    this.closed = true;
  }
}

/** Applies the caller's parsers to the columns the thread sent back as text. */
function parseColumns(result: Results<unknown>, parsers: NonNullable<QueryOptions["parsers"]>) {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    for (const row of result.rows as Array<Record<string | number, unknown>>) {
      const key = Array.isArray(row) ? index : field.name;
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = (parse as (text: string, typeId: number) => unknown)(value as string, field.dataTypeID);
    }
  });
}
