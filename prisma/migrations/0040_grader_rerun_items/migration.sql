-- Durable progress of a dataset grader re-run: one row per (run, trace, grader) to grade.
-- done_at is set in the same transaction that writes the grader label, so a run killed mid-way
-- resumes where it stopped and never counts a trace twice (issue 5, "Dataset re-runs").
CREATE TABLE "grader_rerun_items" (
    "run_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "grader_id" UUID NOT NULL,
    -- true when a grader label was written; false when the trace could not be graded (e.g. not completed).
    "graded" BOOLEAN,
    "done_at" TIMESTAMPTZ(6),

    CONSTRAINT "grader_rerun_items_pkey" PRIMARY KEY ("run_id", "trace_id", "grader_id")
);

ALTER TABLE "grader_rerun_items" ADD CONSTRAINT "grader_rerun_items_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "grader_reruns"("id") ON DELETE CASCADE ON UPDATE CASCADE;
