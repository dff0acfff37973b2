-- Dashboard rollups (docs/scaling.md, "Dashboard"): what the dashboard's charts read, aggregated per organization,
-- hour (by the trace's start) and trace function, kept by a background job (never by ingestion). The dashboard reads
-- them for whole hours that are settled and clean, and the raw rows for the rest.

-- One row per (organization, hour, trace function, kind, key). `fn` is 'n' for traces without a trace function and
-- 'k' || the key otherwise (a primary key cannot hold a null). Kinds: 'traces' (key ''): traces, errors, cost;
-- 'latency' (key: the log-spaced latency bucket): traces; 'model' (key: the model) and 'llm' (key ''): LLM spans'
-- traces, spans, unpriced spans, tokens and cost; 'grader' (key: the grader id): passes and failures; 'verdict'
-- (key: the verdict source): traces with a pass verdict (pass) and with a fail verdict (fail).
CREATE TABLE "dashboard_rollups" (
    "organization_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(6) NOT NULL,
    "fn" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "traces" BIGINT NOT NULL DEFAULT 0,
    "errors" BIGINT NOT NULL DEFAULT 0,
    "spans" BIGINT NOT NULL DEFAULT 0,
    "unpriced_spans" BIGINT NOT NULL DEFAULT 0,
    "input_tokens" BIGINT,
    "output_tokens" BIGINT,
    "total_tokens" BIGINT,
    "cost_usd" DECIMAL(30,10),
    "pass" BIGINT NOT NULL DEFAULT 0,
    "fail" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "dashboard_rollups_pkey" PRIMARY KEY ("organization_id","hour","fn","kind","key")
);

-- Hours whose rollup a change outside ingestion made stale (a delete, a label, a price recompute): read raw until
-- the job recomputes them. `mark` is the writer's random token: the job removes only the marks it read.
CREATE TABLE "dashboard_rollup_dirty" (
    "organization_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(6) NOT NULL,
    "mark" UUID NOT NULL,

    CONSTRAINT "dashboard_rollup_dirty_pkey" PRIMARY KEY ("organization_id","hour")
);

-- Per organization: hours before `rolled_to` are rolled up (none while null); `watermark` is when the job last read the changes.
-- The job takes this row's lock, so two instances never roll the same organization at once.
CREATE TABLE "dashboard_rollup_state" (
    "organization_id" UUID NOT NULL,
    "rolled_to" TIMESTAMPTZ(6),
    "watermark" TIMESTAMPTZ(6),
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "dashboard_rollup_state_pkey" PRIMARY KEY ("organization_id")
);

-- Late changes: traces written more than an hour after they started (late spans, a late completion, a PATCH).
-- Ingestion stamps updated_at on every trace write; a write within the hour lands in an hour the dashboard still
-- reads raw, so only late ones need finding, and this partial index holds only those: the usual write adds no
-- entry to it. Hand-written: Prisma's schema language cannot express a partial index.
CREATE INDEX "traces_late_changes_idx" ON "traces" ("organization_id", "updated_at") INCLUDE ("started_at")
  WHERE "updated_at" - "started_at" > INTERVAL '1 hour';
