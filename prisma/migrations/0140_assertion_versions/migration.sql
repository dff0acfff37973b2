-- An edit of an assertion keeps what it replaced, with who made the edit and when, so a reviewer's decision is
-- never silently overwritten and an edit can be undone (docs/api/assertions.md, "Versions"). The composite
-- foreign key keeps organization_id first, so both tables can be distributed by organization.

-- CreateTable
CREATE TABLE "assertion_versions" (
    "organization_id" UUID NOT NULL,
    "assertion_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "assertion" TEXT NOT NULL,
    "pass_criteria" TEXT,
    "fail_criteria" TEXT,
    "target_on_evaluated_trace" JSONB,
    "check" JSONB,
    "category_assertion_id" TEXT,
    "human_note" TEXT,
    "approval_state" TEXT NOT NULL,
    "replaced_by_user_id" UUID,
    "replaced_by" TEXT NOT NULL,
    "replaced_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "assertion_versions_pkey" PRIMARY KEY ("organization_id","assertion_id","version")
);

-- CreateIndex
CREATE UNIQUE INDEX "assertions_organization_id_id_key" ON "assertions"("organization_id", "id");

-- AddForeignKey
ALTER TABLE "assertion_versions" ADD CONSTRAINT "assertion_versions_organization_id_assertion_id_fkey" FOREIGN KEY ("organization_id", "assertion_id") REFERENCES "assertions"("organization_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

