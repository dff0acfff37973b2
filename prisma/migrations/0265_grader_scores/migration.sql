-- Scores beyond pass/fail (docs/graders.md, "Scores and categories"): a grader label may carry a numeric score
-- or a category beside (or instead of) its boolean label, and says which person recorded a human one.
ALTER TABLE "grader_labels" ADD COLUMN "score" DOUBLE PRECISION;
ALTER TABLE "grader_labels" ADD COLUMN "category" TEXT;
ALTER TABLE "grader_labels" ADD COLUMN "decided_by" UUID;
ALTER TABLE "grader_labels" ADD COLUMN "decided_via" TEXT;

-- Every grader label a later write replaced, so no verdict or score is lost and a person's write can be undone.
CREATE TABLE "grader_label_history" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "grader_id" UUID NOT NULL,
    "grader_version" INTEGER NOT NULL,
    "label" BOOLEAN,
    "score" DOUBLE PRECISION,
    "category" TEXT,
    "label_reason" TEXT,
    "failure_diagnostic" TEXT,
    "label_confidence" TEXT,
    "source" TEXT NOT NULL,
    "decided_by" UUID,
    "decided_via" TEXT,
    "evaluated_at" TIMESTAMPTZ(6),
    "replaced_at" TIMESTAMPTZ(6) NOT NULL,
    "replaced_by" UUID,

    CONSTRAINT "grader_label_history_pkey" PRIMARY KEY ("organization_id", "id")
);
CREATE INDEX "grader_label_history_trace_idx" ON "grader_label_history" ("organization_id", "trace_id", "grader_id", "replaced_at" DESC);

-- The dashboard's score distribution per grader over time reads scored labels by grader.
CREATE INDEX "grader_labels_scored_idx" ON "grader_labels" ("organization_id", "grader_id", "trace_id")
  INCLUDE ("score", "category") WHERE "score" IS NOT NULL OR "category" IS NOT NULL;
