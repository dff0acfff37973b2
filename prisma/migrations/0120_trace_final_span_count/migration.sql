-- Completion reads a trace's count of final spans from the trace row instead of counting its spans on every
-- check (docs/architecture.md, "Ingestion and completion"). The write keeps the count: a span adds one when
-- its first final payload is stored, which final_xact (the transaction that stored it) tells the write apart
-- from a retried or later final copy. Whether the trace failed is read from its root spans alone.
ALTER TABLE "traces" ADD COLUMN "final_span_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "spans" ADD COLUMN "final_xact" xid8;

UPDATE "traces" t SET "final_span_count" = c.n
FROM (SELECT "organization_id", "trace_id", count(*)::integer AS n FROM "spans" WHERE "is_final" GROUP BY 1, 2) c
WHERE t."organization_id" = c."organization_id" AND t."id" = c."trace_id";

CREATE INDEX "spans_roots_by_trace_idx" ON "spans" ("organization_id", "trace_id") WHERE "source_parent_span_id" IS NULL;
