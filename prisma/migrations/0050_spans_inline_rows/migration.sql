-- Ingestion cost (issue 3, bench/README.md). A span row is ~1 KB of columns plus its raw_span document,
-- typically a few KB. With the default toast_tuple_target (~2 KB) every such row was split into TOAST
-- chunks: two or three more heap tuples and TOAST-index entries per span, about an eighth of
-- PostgreSQL's time per ingestion request. Rows up to a page (8 KB) now stay whole in the heap; larger
-- documents are still moved out of line, uncompressed (raw_span keeps STORAGE EXTERNAL).
ALTER TABLE "spans" SET (toast_tuple_target = 8160);

-- Completion counts final spans through the (organization_id, trace_id, started_at) index and reads
-- is_final from the row; a second index on the same keys only for that cost a fifth index insert
-- per span.
DROP INDEX IF EXISTS "spans_final_by_trace_idx";
