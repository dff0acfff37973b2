-- Alerts (docs/alerts.md): rules over the dashboard's aggregates, their versions, the events they fired and the
-- webhook deliveries of those events. A rule's row holds its current definition and its state (ok or firing, and
-- the episode number); every evaluator takes the rule's row lock before it changes the state, and an event is
-- unique per (rule, episode, kind), so several server instances never fire an episode twice. Every table carries
-- organization_id first in its keys (distributed on Citus) and, like traces, no foreign key to organizations.

-- CreateTable
CREATE TABLE "alert_rules" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "trace_function_key" TEXT,
    "threshold" DOUBLE PRECISION NOT NULL,
    "window_minutes" INTEGER NOT NULL,
    "webhook_url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'ok',
    "episode" INTEGER NOT NULL DEFAULT 0,
    "last_value" DOUBLE PRECISION,
    "last_evaluated_at" TIMESTAMPTZ(6),
    "state_changed_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "changed_at" TIMESTAMPTZ(6) NOT NULL,
    "changed_by_user_id" UUID,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateTable
CREATE TABLE "alert_rule_versions" (
    "organization_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "summary" TEXT NOT NULL,
    "changed_by_user_id" UUID,
    "changed_via" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "alert_rule_versions_pkey" PRIMARY KEY ("organization_id","rule_id","version")
);

-- CreateTable
CREATE TABLE "alert_events" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "episode" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "threshold" DOUBLE PRECISION NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "body" JSONB NOT NULL,

    CONSTRAINT "alert_events_pkey" PRIMARY KEY ("organization_id","id")
);

-- One firing and one resolve per episode of a rule, whichever instance evaluated it.
CREATE UNIQUE INDEX "alert_events_episode_key" ON "alert_events"("organization_id", "rule_id", "episode", "kind");

-- CreateTable
CREATE TABLE "alert_deliveries" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "response_code" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("organization_id","id")
);

CREATE INDEX "alert_deliveries_rule_idx" ON "alert_deliveries"("organization_id", "rule_id", "at");
