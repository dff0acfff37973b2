-- The review loop (docs/api/assertions.md, "Review"; docs/api/replay.md): organization-wide assertion
-- categories, an assignee per assertion, span evidence on verdicts, experiment groups, git state on
-- experiments, and grader re-runs over an experiment or a group as well as a dataset.
CREATE TABLE "assertion_categories" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assertion_categories_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "assertion_categories_organization_id_title_idx" ON "assertion_categories"("organization_id", "title");

ALTER TABLE "assertions" ADD COLUMN "assignee_user_id" UUID;
CREATE INDEX "assertions_organization_id_approval_state_created_at_idx" ON "assertions"("organization_id", "approval_state", "created_at");

ALTER TABLE "trace_labels" ADD COLUMN "evidence" JSONB;

CREATE TABLE "experiment_groups" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT,
    "notes" TEXT,
    "grader_ids" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "experiment_groups_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "experiment_groups_organization_id_created_at_idx" ON "experiment_groups"("organization_id", "created_at" DESC);

ALTER TABLE "experiments" ADD COLUMN "experiment_group_id" UUID;
ALTER TABLE "experiments" ADD COLUMN "git_branch" TEXT;
ALTER TABLE "experiments" ADD COLUMN "commit_sha" TEXT;
CREATE INDEX "experiments_organization_id_experiment_group_id_idx" ON "experiments"("organization_id", "experiment_group_id");

ALTER TABLE "grader_reruns" ALTER COLUMN "dataset_id" DROP NOT NULL;
ALTER TABLE "grader_reruns" ADD COLUMN "experiment_id" UUID;
ALTER TABLE "grader_reruns" ADD COLUMN "experiment_group_id" UUID;
-- One active re-run per experiment and per group, like per dataset (grader_reruns_one_active_key).
CREATE UNIQUE INDEX "grader_reruns_one_active_experiment_key" ON "grader_reruns" ("experiment_id")
    WHERE status IN ('pending', 'running');
CREATE UNIQUE INDEX "grader_reruns_one_active_group_key" ON "grader_reruns" ("experiment_group_id")
    WHERE status IN ('pending', 'running');
