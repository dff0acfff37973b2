-- The trace list (GET /api/sdk/traces, the console) pages newest first by (started_at DESC NULLS LAST, id DESC)
-- over non-dropped traces; this index serves that order and its keyset cursor directly.
-- Hand-written: Prisma's schema language cannot express NULLS LAST with a partial WHERE.
CREATE INDEX "traces_list_idx" ON "traces" ("organization_id", "started_at" DESC NULLS LAST, "id" DESC) WHERE NOT "dropped";
