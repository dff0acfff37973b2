-- reprise:no-transaction
-- The trace page's tree of a big trace (docs/api/console.md, "Trace page"; bench/README.md, "The 100,000-span
-- trace's page"). Its first read ordered every span of the trace from its heap row: a span row fills most of a
-- heap page (raw_span stays inline up to 8 KB, migration 0050), so a 100,000-span trace read ~50,000 pages for
-- ~100 bytes of each, 3-5 s before the page's first row. The trace's index now carries what the tree, the
-- trace's metrics, its instrumentations and the tree's search read, so that read is an index-only scan of
-- ~20 MB once the spans' pages are all-visible (a vacuum has passed them). Fixed-width columns and the short
-- labels only: no payload. The index keeps its name and keys, so ingestion maintains as many indexes as before.
-- Hand-written: Prisma's schema language cannot express INCLUDE.
--
-- Outside a transaction (the first line; server/db/migrator.ts), so that on a large database ingestion goes on while
-- the index is built: the wider index is built CONCURRENTLY under a temporary name, then takes the old one's place
-- (docs/operations.md, "Starting"). Each statement is safe to run again after an interruption: a leftover of the
-- temporary index (INVALID if its build was cut short) is dropped and built again, and the old index is dropped only
-- if it is still there.
DROP INDEX CONCURRENTLY IF EXISTS "spans_trace_tree_idx_building";
CREATE INDEX CONCURRENTLY "spans_trace_tree_idx_building" ON "spans" ("organization_id", "trace_id", "started_at")
  INCLUDE ("id", "parent_span_id", "ended_at", "duration_ms", "created_at", "is_final", "name", "type", "model",
    "input_tokens", "output_tokens", "cached_tokens", "total_tokens", "instrumentation", "source");
DROP INDEX CONCURRENTLY IF EXISTS "spans_organization_id_trace_id_started_at_idx";
ALTER INDEX "spans_trace_tree_idx_building" RENAME TO "spans_organization_id_trace_id_started_at_idx";

-- The capture notes the trace's metrics report (errors), which are too large for the index above: only the spans
-- that carry any, a few of a trace's, so their heap rows are the only ones the page's first read visits. Dropped
-- first, should an interrupted build have left it INVALID.
DROP INDEX CONCURRENTLY IF EXISTS "spans_errors_by_trace_idx";
CREATE INDEX CONCURRENTLY "spans_errors_by_trace_idx" ON "spans" ("organization_id", "trace_id") WHERE "errors" IS NOT NULL;

-- An index-only scan skips a heap page only once a vacuum has marked it all-visible. By default autovacuum passes
-- a table after inserts of a fifth of its rows: at 10 million spans, a new trace would wait for 2 million more.
-- After every 20,000 inserted spans instead; each pass reads only the pages not yet all-visible.
ALTER TABLE "spans" SET (autovacuum_vacuum_insert_threshold = 20000, autovacuum_vacuum_insert_scale_factor = 0);
