-- Data lifecycle (docs/operations.md, "Retention" and "Deleting data"): an organization's retention period and the
-- history of its changes, a person's pin on a trace (the retention sweep keeps it), the deleted traces whose spans
-- the purge job still removes, and the tombstones of deleted graders and assertions (restorable). Every new table
-- has organization_id first in its primary key, so it is distributed by organization on Citus.
-- The indexes let a deletion find a trace's rows in the tables that hang from it without scanning the organization's.
-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "retention_days" INTEGER;

-- AlterTable
ALTER TABLE "traces" ADD COLUMN     "pinned_at" TIMESTAMPTZ(6),
ADD COLUMN     "pinned_by_user_id" UUID;

-- CreateTable
CREATE TABLE "retention_changes" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "previous_days" INTEGER,
    "retention_days" INTEGER,
    "changed_by_user_id" UUID,
    "changed_via" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "retention_changes_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateTable
CREATE TABLE "trace_purges" (
    "organization_id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "deleted_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "trace_purges_pkey" PRIMARY KEY ("organization_id","trace_id")
);

-- CreateTable
CREATE TABLE "tombstones" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "item_id" UUID NOT NULL,
    "snapshot" JSONB NOT NULL,
    "deleted_by_user_id" UUID,
    "deleted_via" TEXT NOT NULL,
    "deleted_at" TIMESTAMPTZ(6) NOT NULL,
    "restored_at" TIMESTAMPTZ(6),

    CONSTRAINT "tombstones_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateIndex
CREATE INDEX "retention_changes_organization_id_changed_at_idx" ON "retention_changes"("organization_id", "changed_at" DESC);

-- CreateIndex
CREATE INDEX "trace_purges_organization_id_deleted_at_idx" ON "trace_purges"("organization_id", "deleted_at");

-- CreateIndex
CREATE INDEX "tombstones_organization_id_kind_deleted_at_idx" ON "tombstones"("organization_id", "kind", "deleted_at" DESC);

-- CreateIndex
CREATE INDEX "grader_rerun_items_organization_id_trace_id_idx" ON "grader_rerun_items"("organization_id", "trace_id");

-- CreateIndex
CREATE INDEX "experiment_items_organization_id_original_trace_id_idx" ON "experiment_items"("organization_id", "original_trace_id");

-- CreateIndex
CREATE INDEX "otel_span_events_organization_id_trace_id_idx" ON "otel_span_events"("organization_id", "trace_id");


-- CreateIndex
CREATE INDEX "trace_labels_organization_id_assertion_id_idx" ON "trace_labels"("organization_id", "assertion_id");
