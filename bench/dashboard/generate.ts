// The dashboard bench's generator: traces, spans, grader labels and verdicts written set-based by the database
// itself (generate_series), in chunks, for one organization over a span of days. Not the ingestion path: this
// measures reads, and bench/ingest measures writes.
import { sql, type SqlDatabase } from "../../server/db/sql.ts";

export interface TGenerateOptions {
  organizationId: string;
  traces: number;
  spansPerTrace: number;
  /** Of those, how many are LLM calls (a model, tokens, a cost). */
  llmSpansPerTrace: number;
  days: number;
  /** Traces per statement. */
  chunk: number;
  end: Date;
}

const FUNCTIONS = ["answer-question", "summarize", "classify", "extract", "route", "plan", "search", "draft"];
const MODELS = ["gpt-4o-2024-08-06", "gpt-4o-mini", "claude-3-5-sonnet-20241022", "gemini-2.5-flash", "o3-mini", "local-llama"];

export async function generate(db: SqlDatabase, o: TGenerateOptions, progress: (done: number) => void): Promise<void> {
  const graders = FUNCTIONS.slice(0, 4).map((fn, i) => ({ id: `00000000-0000-4000-8000-00000000000${i + 1}`, fn }));
  for (const g of graders) {
    await db.query(sql`INSERT INTO graders (organization_id, id, trace_function_key, name, kind, config)
      VALUES (${o.organizationId}::uuid, ${g.id}::uuid, ${g.fn}, ${`${g.fn} quality`}, 'rule', '{}'::jsonb)`);
  }
  const seconds = o.days * 86_400;
  for (let first = 0; first < o.traces; first += o.chunk) {
    const last = Math.min(o.traces, first + o.chunk) - 1;
    // Traces: spread evenly over the days, 3% failed, durations 0.2–6 s.
    await db.query(sql`
      INSERT INTO traces (organization_id, id, source_trace_id, trace_function_key, status, started_at, ended_at, completed_at, final_span_count, cost_usd, updated_at)
      SELECT ${o.organizationId}::uuid, md5('t' || n)::uuid, 't' || n, ((${FUNCTIONS})::text[])[1 + n % ${FUNCTIONS.length}],
        CASE WHEN n % 33 = 0 THEN 'failed' ELSE 'completed' END,
        ${o.end.toISOString()}::timestamptz - (${seconds} * (n::float8 / ${o.traces})) * INTERVAL '1 second',
        ${o.end.toISOString()}::timestamptz - (${seconds} * (n::float8 / ${o.traces})) * INTERVAL '1 second' + (200 + (n::bigint * 7919) % 5800) * INTERVAL '1 millisecond',
        ${o.end.toISOString()}::timestamptz, ${o.spansPerTrace}, NULL,
        -- Written as ingestion would have, a minute after the start (not a late change: docs/scaling.md, "Dashboard").
        ${o.end.toISOString()}::timestamptz - (${seconds} * (n::float8 / ${o.traces})) * INTERVAL '1 second' + INTERVAL '1 minute'
      FROM generate_series(${first}::int, ${last}::int) AS n`);
    // Spans: the first llmSpansPerTrace of each trace call a model (the last model has no price: unpriced).
    await db.query(sql`
      INSERT INTO spans (organization_id, id, trace_id, source_span_id, source_trace_id, payload_type, trace_function_key, node_key,
        name, type, raw_span, started_at, ended_at, is_final, duration_ms, input_tokens, output_tokens, total_tokens, model, cost_usd)
      SELECT ${o.organizationId}::uuid, md5('s' || n || '.' || k)::uuid, md5('t' || n)::uuid, 's' || n || '.' || k, 't' || n, 'sdk-function',
        t.fn, t.fn, CASE WHEN k < ${o.llmSpansPerTrace} THEN 'call-model' ELSE 'step-' || k END,
        CASE WHEN k < ${o.llmSpansPerTrace} THEN 'llm' ELSE 'function' END, '{"span_data":{}}'::json,
        t.at + k * INTERVAL '10 millisecond', t.at + k * INTERVAL '10 millisecond' + INTERVAL '5 millisecond', true, 5,
        CASE WHEN k < ${o.llmSpansPerTrace} THEN 500 + (n * 31 + k) % 3000 END,
        CASE WHEN k < ${o.llmSpansPerTrace} THEN 50 + (n * 17 + k) % 800 END,
        CASE WHEN k < ${o.llmSpansPerTrace} THEN 550 + (n * 31 + k) % 3000 + (n * 17 + k) % 800 END,
        CASE WHEN k < ${o.llmSpansPerTrace} THEN ((${MODELS})::text[])[1 + (n + k) % ${MODELS.length}] END,
        CASE WHEN k < ${o.llmSpansPerTrace} AND (n + k) % ${MODELS.length} <> ${MODELS.length - 1} THEN ((500 + (n * 31 + k) % 3000) * 2.5 + (50 + (n * 17 + k) % 800) * 10) / 1e6 END
      FROM generate_series(${first}::int, ${last}::int) AS n
      CROSS JOIN generate_series(0, ${o.spansPerTrace - 1}::int) AS k
      CROSS JOIN LATERAL (SELECT ((${FUNCTIONS})::text[])[1 + n % ${FUNCTIONS.length}] AS fn,
        ${o.end.toISOString()}::timestamptz - (${seconds} * (n::float8 / ${o.traces})) * INTERVAL '1 second' AS at) t`);
    // A trace's cost: the sum of its spans' (what ingestion keeps).
    await db.query(sql`
      UPDATE traces t SET cost_usd = k.cost FROM (
        SELECT s.trace_id, sum(s.cost_usd) AS cost FROM spans s
        WHERE s.organization_id = ${o.organizationId}::uuid AND s.trace_id = ANY(ARRAY(SELECT md5('t' || n)::uuid FROM generate_series(${first}::int, ${last}::int) AS n))
          AND s.model IS NOT NULL GROUP BY s.trace_id) k
      WHERE t.organization_id = ${o.organizationId}::uuid AND t.id = k.trace_id`);
    // Grader labels on the traces of the graded functions (80% pass); a human verdict on every 20th trace.
    await db.query(sql`
      INSERT INTO grader_labels (organization_id, id, trace_id, grader_id, label, source)
      SELECT ${o.organizationId}::uuid, md5('g' || n)::uuid, md5('t' || n)::uuid,
        ((${graders.map((g) => g.id)})::uuid[])[1 + n % ${FUNCTIONS.length}], (n * 13) % 5 <> 0, 'grader'
      FROM generate_series(${first}::int, ${last}::int) AS n WHERE n % ${FUNCTIONS.length} < ${graders.length}`);
    await db.query(sql`
      INSERT INTO trace_labels (organization_id, id, trace_id, label_status, label, label_source, approved, approval_state)
      SELECT ${o.organizationId}::uuid, md5('l' || n)::uuid, md5('t' || n)::uuid, 'labeled', n % 3 <> 0, 'human', true, 'approved'
      FROM generate_series(${first}::int, ${last}::int) AS n WHERE n % 20 = 0`);
    progress(last + 1);
  }
  await db.query(sql`ANALYZE traces`);
  await db.query(sql`ANALYZE spans`);
  await db.query(sql`ANALYZE grader_labels`);
  await db.query(sql`ANALYZE trace_labels`);
}
