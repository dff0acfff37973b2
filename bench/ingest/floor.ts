// The floor of the ingestion benchmark: the least a receiver can do for the same request and the same
// stored rows. A bare node:http server that gunzips the body, parses the OTLP/JSON envelope and each
// carrier's payload, validates what it stores (ids, timestamps, numbers), and writes the trace and span
// rows Reprise writes (same tables, indexes and columns that matter, raw_span as json) in one
// statement per request, committed before it answers (PostgreSQL's default durability). No framework,
// no authentication, no completion logic, no per-carrier error isolation.
//   FLOOR_PORT=… FLOOR_ORG_ID=… (DATABASE_URL=postgresql://… | FLOOR_PGLITE_DIR=…) node --import tsx bench/ingest/floor.ts
// The database must already be migrated (bench/ingest/run.ts does that).
import http from "node:http";
import zlib from "node:zlib";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";

const port = Number(process.env.FLOOR_PORT);
const org = process.env.FLOOR_ORG_ID!;

type Query = (text: string, values: unknown[]) => Promise<unknown>;
let query: Query;
/** On a Citus coordinator the write is two statements in one transaction (see CITUS_WRITES). */
let citus = false;
let pool: pg.Pool | undefined;
if (process.env.DATABASE_URL) {
  // Reprise's pool size for PostgreSQL (server/db/client.ts).
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const p = pool;
  query = async (text, values) => p.query({ name: "floor_write", text, values });
  citus = (await pool.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).rowCount! > 0;
} else {
  // The embedded database as Reprise opens it (server/db/client.ts, PGLITE_SHARED_BUFFERS: 16 MB).
  const db = new PGlite(process.env.FLOOR_PGLITE_DIR!, { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"] });
  await db.waitReady;
  query = (text, values) => db.query(text, values);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = (v: unknown): string | null => (typeof v === "string" && UUID.test(v) ? v.toLowerCase() : null);
const time = (v: unknown): string | null => (typeof v === "string" && !Number.isNaN(Date.parse(v)) ? v : null);
const int = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? v : null);
const text = (v: unknown): string | null => (typeof v === "string" ? v.slice(0, 1000) : null);

interface Attribute {
  key: string;
  value?: { stringValue?: string };
}

/** Envelope → trace rows and span rows; a carrier that does not validate is counted, not stored. */
function rowsOf(body: Buffer): { traces: Map<string, Record<string, unknown>>; spans: Record<string, unknown>[]; rejected: number } {
  const envelope = JSON.parse(body.toString("utf8")) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<{ attributes?: Attribute[] }> }> }> };
  if (!Array.isArray(envelope.resourceSpans)) throw new Error("resourceSpans must be an array");
  const traces = new Map<string, Record<string, unknown>>();
  const spans: Record<string, unknown>[] = [];
  let rejected = 0;
  for (const rs of envelope.resourceSpans) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const carrier of ss.spans ?? []) {
        const attr = (key: string) => carrier.attributes?.find((a) => a.key === key)?.value?.stringValue;
        const operation = attr("reprise.operation");
        const payloadText = attr("reprise.payload");
        let payload: Record<string, any>;
        try {
          payload = JSON.parse(payloadText ?? "");
        } catch {
          rejected++;
          continue;
        }
        if (operation === "external_span") {
          const raw = payload.rawSpan;
          const id = uuid(raw?.id);
          const traceId = uuid(raw?.trace_id);
          if (!id || !traceId || typeof raw?.span_data !== "object") {
            rejected++;
            continue;
          }
          const started = time(raw.started_at);
          const ended = time(raw.ended_at);
          const usage = raw.span_data.contexts?.[0] ?? {};
          const input = int(usage.inputTokens);
          const output = int(usage.outputTokens);
          spans.push({
            id,
            trace_id: traceId,
            parent_span_id: uuid(raw.parent_id),
            source_span_id: raw.id,
            source_trace_id: raw.trace_id,
            source_parent_span_id: raw.parent_id ?? null,
            source: text(payload.source),
            sdk_version: text(payload.sdkVersion),
            trace_function_key: text(payload.traceFunctionKey),
            name: text(raw.span_data.name) ?? "span",
            type: text(raw.span_data.type) ?? "custom",
            raw_span: raw,
            started_at: started,
            ended_at: ended,
            duration_ms: started && ended ? Date.parse(ended) - Date.parse(started) : null,
            input_tokens: input,
            output_tokens: output,
            total_tokens: input !== null && output !== null ? input + output : null,
            model: text(usage.model),
          });
          if (!traces.has(traceId)) traces.set(traceId, { id: traceId, source_trace_id: raw.trace_id, trace_function_key: text(payload.traceFunctionKey), started_at: started });
        } else if (operation === "external_trace") {
          const trace = payload.externalTrace;
          const id = uuid(trace?.id);
          if (!id) {
            rejected++;
            continue;
          }
          traces.set(id, {
            id,
            source_trace_id: trace.id,
            trace_function_key: text(payload.traceFunctionKey),
            external_trace: trace,
            metadata: trace.metadata ?? null,
            started_at: time(trace.started_at),
            ended_at: time(trace.ended_at),
            expected_span_count: int(payload.expectedSpanCount),
            completed: payload.completed === true,
          });
        } else {
          rejected++;
        }
      }
    }
  }
  return { traces, spans, rejected };
}

/** The traces upsert (row-locking each trace, in id order); `now` is now() or a parameter, `rows` the traces' JSON. */
const tracesUpsert = (now: string, rows: string, updatedAt = now) => `
    INSERT INTO traces AS t (organization_id, id, source_trace_id, trace_function_key, external_trace, metadata,
      started_at, ended_at, expected_span_count, completion_signal_at${updatedAt === now ? "" : ", updated_at"})
    SELECT $1::uuid, r.id, r.source_trace_id, r.trace_function_key, r.external_trace, COALESCE(r.metadata, '{}'),
      r.started_at, r.ended_at, r.expected_span_count, CASE WHEN r.completed THEN ${now} END${updatedAt === now ? "" : `, ${now}`}
    FROM jsonb_to_recordset(${rows}) AS r(id uuid, source_trace_id text, trace_function_key text,
      external_trace jsonb, metadata jsonb, started_at timestamptz, ended_at timestamptz,
      expected_span_count integer, completed boolean)
    ORDER BY r.id
    ON CONFLICT (organization_id, id) DO UPDATE SET
      external_trace = COALESCE(EXCLUDED.external_trace, t.external_trace),
      metadata = t.metadata || EXCLUDED.metadata,
      started_at = COALESCE(t.started_at, EXCLUDED.started_at),
      ended_at = COALESCE(EXCLUDED.ended_at, t.ended_at),
      expected_span_count = COALESCE(EXCLUDED.expected_span_count, t.expected_span_count),
      completion_signal_at = COALESCE(t.completion_signal_at, EXCLUDED.completion_signal_at),
      updated_at = ${updatedAt}`;

/** The spans insert; `now` is now() or a parameter, `rows` the spans' JSON. */
const spansUpsert = (now: string, rows: string, updatedAt = now) => `
  INSERT INTO spans (organization_id, id, trace_id, parent_span_id, source_span_id, source_trace_id,
    source_parent_span_id, payload_type, source, sdk_version, trace_function_key, name, type, raw_span,
    started_at, ended_at, is_final, duration_ms, input_tokens, output_tokens, total_tokens, model${updatedAt === now ? "" : ", updated_at"})
  SELECT $1::uuid, r.id, r.trace_id, r.parent_span_id, r.source_span_id, r.source_trace_id,
    r.source_parent_span_id, 'external_span', r.source, r.sdk_version, r.trace_function_key, r.name, r.type,
    r.raw_span, r.started_at, r.ended_at, true, r.duration_ms, r.input_tokens, r.output_tokens,
    r.total_tokens, r.model${updatedAt === now ? "" : `, ${now}`}
  FROM json_to_recordset(${rows}) AS r(id uuid, trace_id uuid, parent_span_id uuid, source_span_id text,
    source_trace_id text, source_parent_span_id text, source text, sdk_version text, trace_function_key text,
    name text, type text, raw_span json, started_at timestamptz, ended_at timestamptz, duration_ms integer,
    input_tokens integer, output_tokens integer, total_tokens integer, model text)
  ORDER BY r.id
  ON CONFLICT (organization_id, id) DO UPDATE SET raw_span = EXCLUDED.raw_span, updated_at = ${updatedAt}`;

// One statement: the traces upsert and the spans insert.
const WRITE = `WITH t AS (${tracesUpsert("now()", "$2::jsonb")}
    RETURNING t.id
  )${spansUpsert("now()", "$3::json")}`;

/**
 * The same write on a Citus coordinator, which refuses it as one statement (a data-modifying CTE over two
 * distributed tables, and now() inside ON CONFLICT … DO UPDATE): the traces upsert, then the spans insert, in one
 * transaction, with the time passed as a parameter, as Reprise does there (docs/operations.md, "Citus").
 */
// Citus plans an INSERT … SELECT from the request's JSON through the coordinator, and there a parameter inside
// DO UPDATE has no type it can determine: the time goes in as a column of the rows, and DO UPDATE reads EXCLUDED.
const CITUS_TRACES = tracesUpsert("$3::timestamptz", "$2::jsonb", "EXCLUDED.updated_at");
const CITUS_SPANS = spansUpsert("$3::timestamptz", "$2::json", "EXCLUDED.updated_at");

async function writeOnCitus([organization, traces, spans]: [string, string, string]): Promise<void> {
  const client = await pool!.connect();
  const at = new Date().toISOString();
  try {
    await client.query("BEGIN");
    await client.query({ name: "floor_traces", text: CITUS_TRACES, values: [organization, traces, at] });
    await client.query({ name: "floor_spans", text: CITUS_SPANS, values: [organization, spans, at] });
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

const server = http.createServer(async (req, res) => {
  const answer = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  try {
    if (req.method !== "POST") return answer(404, { error: "not found" });
    const compressed = await readBody(req);
    const body = req.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(compressed) : compressed;
    let rows;
    try {
      rows = rowsOf(body);
    } catch (e) {
      return answer(400, { error: (e as Error).message });
    }
    const sortedSpans = rows.spans.sort((a, b) => ((a.id as string) < (b.id as string) ? -1 : 1));
    const values: [string, string, string] = [org, JSON.stringify([...rows.traces.values()]), JSON.stringify(sortedSpans)];
    if (rows.traces.size > 0) await (citus ? writeOnCitus(values) : query(WRITE, values));
    answer(200, rows.rejected > 0 ? { partialSuccess: { rejectedSpans: rows.rejected } } : {});
  } catch (e) {
    answer(503, { error: (e as Error).message });
  }
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => console.log(`floor listening on ${port}`));
process.on("SIGTERM", () => process.exit(0)); // lets --cpu-prof (FLOOR_NODE_ARGS) write its profile
