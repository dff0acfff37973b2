-- A grader keeps every version of its definition, with who wrote it and through what (console, REST key or an
-- agent's MCP tool), so no write replaces what a person decided without a trace (docs/graders.md, "History").
-- graders.version is the latest version's number; a grader label names the version that produced it.
ALTER TABLE "graders" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "grader_labels" ADD COLUMN "grader_version" INTEGER NOT NULL DEFAULT 1;

-- The versions' foreign key leads with organization_id (distributable by organization).
CREATE UNIQUE INDEX "graders_organization_id_id_key" ON "graders"("organization_id", "id");

CREATE TABLE "grader_versions" (
    "organization_id" UUID NOT NULL,
    "grader_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "trace_function_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "author_user_id" UUID,
    "author_via" TEXT NOT NULL,
    "author_tool" TEXT,
    "summary" TEXT NOT NULL,
    "reverted_from" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "grader_versions_pkey" PRIMARY KEY ("organization_id","grader_id","version")
);

ALTER TABLE "grader_versions" ADD CONSTRAINT "grader_versions_organization_id_grader_id_fkey" FOREIGN KEY ("organization_id", "grader_id") REFERENCES "graders"("organization_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing graders become version 1, as they stand; who wrote them was not recorded.
INSERT INTO "grader_versions" ("organization_id", "grader_id", "version", "trace_function_key", "name", "kind", "config",
                               "status", "live", "author_via", "summary", "created_at")
SELECT "organization_id", "id", 1, "trace_function_key", "name", "kind", "config", "status", "live", 'migration',
       'Version as it stood before history was kept', "updated_at"
FROM "graders";
