-- Online evaluation (docs/graders.md, "Online evaluation"): a backfill is a grader's re-run over its trace
-- function's past traces in a time range. It reuses grader_reruns and grader_rerun_items (progress, items,
-- the grading jobs' once-only bookkeeping) with a grader as its subject, and can be cancelled.
ALTER TABLE "grader_reruns"
  ADD COLUMN "grader_id" UUID,
  ADD COLUMN "grader_version" INTEGER,
  ADD COLUMN "started_from" TIMESTAMPTZ(6),
  ADD COLUMN "started_to" TIMESTAMPTZ(6),
  ADD COLUMN "estimate" JSONB,
  ADD COLUMN "requested_by" UUID,
  ADD COLUMN "cancelled_at" TIMESTAMPTZ(6);

-- One active backfill per grader, as one active re-run per dataset.
CREATE UNIQUE INDEX "grader_reruns_one_active_backfill_key" ON "grader_reruns" ("organization_id", "grader_id") WHERE "status" IN ('pending', 'running');
CREATE INDEX "grader_reruns_organization_id_grader_id_created_at_idx" ON "grader_reruns" ("organization_id", "grader_id", "created_at" DESC);
