-- An organization's redaction rules, one row per version (docs/operations.md, "Redaction"): a change inserts a
-- new version and never rewrites an old one, so who changed what stays readable and any version can be
-- restored (a restore is itself a new version naming the one it copied). The highest version is in force.
CREATE TABLE "redaction_rule_versions" (
    "organization_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "rules" JSONB NOT NULL,
    "author_user_id" UUID,
    "restored_from" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "redaction_rule_versions_pkey" PRIMARY KEY ("organization_id","version")
);
