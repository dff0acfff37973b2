-- Every table that grows with use is keyed by organization first: its primary key, its unique constraints and its
-- foreign keys include organization_id, so the same schema can be distributed by organization on Citus
-- (docs/operations.md, "Citus"), where every key of a distributed table must include its distribution column.
-- Three child tables had no organization_id: it is copied from their parent row. Foreign keys no longer cascade
-- updates (Citus refuses ON UPDATE CASCADE on a distribution column; ids are never updated).

-- Foreign keys on the old single-column keys go first.
ALTER TABLE "function_versions" DROP CONSTRAINT "function_versions_function_id_fkey";
ALTER TABLE "function_executions" DROP CONSTRAINT "function_executions_function_id_fkey";
ALTER TABLE "dataset_traces" DROP CONSTRAINT "dataset_traces_dataset_id_fkey";
ALTER TABLE "dataset_graders" DROP CONSTRAINT "dataset_graders_dataset_id_fkey";
ALTER TABLE "dataset_graders" DROP CONSTRAINT "dataset_graders_grader_id_fkey";
ALTER TABLE "grader_rerun_items" DROP CONSTRAINT "grader_rerun_items_run_id_fkey";
ALTER TABLE "experiment_items" DROP CONSTRAINT "experiment_items_experiment_id_fkey";

-- The organization of each child row, from its parent.
ALTER TABLE "function_versions" ADD COLUMN "organization_id" UUID;
UPDATE "function_versions" v SET "organization_id" = f."organization_id" FROM "functions" f WHERE f."id" = v."function_id";
DELETE FROM "function_versions" WHERE "organization_id" IS NULL;
ALTER TABLE "function_versions" ALTER COLUMN "organization_id" SET NOT NULL;

ALTER TABLE "dataset_graders" ADD COLUMN "organization_id" UUID;
UPDATE "dataset_graders" g SET "organization_id" = d."organization_id" FROM "datasets" d WHERE d."id" = g."dataset_id";
DELETE FROM "dataset_graders" WHERE "organization_id" IS NULL;
ALTER TABLE "dataset_graders" ALTER COLUMN "organization_id" SET NOT NULL;

ALTER TABLE "experiment_items" ADD COLUMN "organization_id" UUID;
UPDATE "experiment_items" i SET "organization_id" = e."organization_id" FROM "experiments" e WHERE e."id" = i."experiment_id";
DELETE FROM "experiment_items" WHERE "organization_id" IS NULL;
ALTER TABLE "experiment_items" ALTER COLUMN "organization_id" SET NOT NULL;

-- Primary keys.
ALTER TABLE "trace_events" DROP CONSTRAINT "trace_events_pkey", ADD CONSTRAINT "trace_events_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "functions" DROP CONSTRAINT "functions_pkey", ADD CONSTRAINT "functions_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "function_versions" DROP CONSTRAINT "function_versions_pkey", ADD CONSTRAINT "function_versions_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "function_executions" DROP CONSTRAINT "function_executions_pkey", ADD CONSTRAINT "function_executions_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "datasets" DROP CONSTRAINT "datasets_pkey", ADD CONSTRAINT "datasets_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "dataset_traces" DROP CONSTRAINT "dataset_traces_pkey", ADD CONSTRAINT "dataset_traces_pkey" PRIMARY KEY ("organization_id", "dataset_id", "trace_id");
ALTER TABLE "dataset_graders" DROP CONSTRAINT "dataset_graders_pkey", ADD CONSTRAINT "dataset_graders_pkey" PRIMARY KEY ("organization_id", "dataset_id", "grader_id");
ALTER TABLE "assertions" DROP CONSTRAINT "assertions_pkey", ADD CONSTRAINT "assertions_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "assertion_categories" DROP CONSTRAINT "assertion_categories_pkey", ADD CONSTRAINT "assertion_categories_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "trace_labels" DROP CONSTRAINT "trace_labels_pkey", ADD CONSTRAINT "trace_labels_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "graders" DROP CONSTRAINT "graders_pkey", ADD CONSTRAINT "graders_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "grader_labels" DROP CONSTRAINT "grader_labels_pkey", ADD CONSTRAINT "grader_labels_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "grader_reruns" DROP CONSTRAINT "grader_reruns_pkey", ADD CONSTRAINT "grader_reruns_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "grader_rerun_items" DROP CONSTRAINT "grader_rerun_items_pkey", ADD CONSTRAINT "grader_rerun_items_pkey" PRIMARY KEY ("organization_id", "run_id", "trace_id", "grader_id");
ALTER TABLE "experiments" DROP CONSTRAINT "experiments_pkey", ADD CONSTRAINT "experiments_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "experiment_groups" DROP CONSTRAINT "experiment_groups_pkey", ADD CONSTRAINT "experiment_groups_pkey" PRIMARY KEY ("organization_id", "id");
ALTER TABLE "experiment_items" DROP CONSTRAINT "experiment_items_pkey", ADD CONSTRAINT "experiment_items_pkey" PRIMARY KEY ("organization_id", "experiment_id", "original_trace_id");

-- Unique constraints.
DROP INDEX "function_versions_function_id_version_number_key";
CREATE UNIQUE INDEX "function_versions_organization_id_function_id_version_numbe_key" ON "function_versions"("organization_id", "function_id", "version_number");
-- One active grader re-run per dataset, experiment and group (0001, 0100), now within the organization.
DROP INDEX "grader_reruns_one_active_key";
CREATE UNIQUE INDEX "grader_reruns_one_active_key" ON "grader_reruns" ("organization_id", "dataset_id") WHERE "status" IN ('pending', 'running');
DROP INDEX "grader_reruns_one_active_experiment_key";
CREATE UNIQUE INDEX "grader_reruns_one_active_experiment_key" ON "grader_reruns" ("organization_id", "experiment_id") WHERE "status" IN ('pending', 'running');
DROP INDEX "grader_reruns_one_active_group_key";
CREATE UNIQUE INDEX "grader_reruns_one_active_group_key" ON "grader_reruns" ("organization_id", "experiment_group_id") WHERE "status" IN ('pending', 'running');

-- Foreign keys on (organization_id, id).
ALTER TABLE "function_versions" ADD CONSTRAINT "function_versions_organization_id_function_id_fkey" FOREIGN KEY ("organization_id", "function_id") REFERENCES "functions"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "function_executions" ADD CONSTRAINT "function_executions_organization_id_function_id_fkey" FOREIGN KEY ("organization_id", "function_id") REFERENCES "functions"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "dataset_traces" ADD CONSTRAINT "dataset_traces_organization_id_dataset_id_fkey" FOREIGN KEY ("organization_id", "dataset_id") REFERENCES "datasets"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "dataset_graders" ADD CONSTRAINT "dataset_graders_organization_id_dataset_id_fkey" FOREIGN KEY ("organization_id", "dataset_id") REFERENCES "datasets"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "dataset_graders" ADD CONSTRAINT "dataset_graders_organization_id_grader_id_fkey" FOREIGN KEY ("organization_id", "grader_id") REFERENCES "graders"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "grader_rerun_items" ADD CONSTRAINT "grader_rerun_items_organization_id_run_id_fkey" FOREIGN KEY ("organization_id", "run_id") REFERENCES "grader_reruns"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "experiment_items" ADD CONSTRAINT "experiment_items_organization_id_experiment_id_fkey" FOREIGN KEY ("organization_id", "experiment_id") REFERENCES "experiments"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Version history tables (0130, 0140) keep their keys; their foreign keys stop cascading updates, as above.
ALTER TABLE "grader_versions" DROP CONSTRAINT "grader_versions_organization_id_grader_id_fkey";
ALTER TABLE "grader_versions" ADD CONSTRAINT "grader_versions_organization_id_grader_id_fkey" FOREIGN KEY ("organization_id", "grader_id") REFERENCES "graders"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "assertion_versions" DROP CONSTRAINT "assertion_versions_organization_id_assertion_id_fkey";
ALTER TABLE "assertion_versions" ADD CONSTRAINT "assertion_versions_organization_id_assertion_id_fkey" FOREIGN KEY ("organization_id", "assertion_id") REFERENCES "assertions"("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
