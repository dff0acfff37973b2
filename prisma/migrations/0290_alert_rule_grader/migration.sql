-- Mean-score alert rules (docs/alerts.md, "Kinds"): a `mean_score` rule watches one grader's scores, named here.
-- Null for every other kind. No foreign key to graders, like the rest of alerts: a grader's deletion leaves the
-- rule, which then measures nothing (neither fires nor resolves). A column added to a distributed table: Citus
-- propagates it to the shards.
ALTER TABLE "alert_rules" ADD COLUMN "grader_id" UUID;
