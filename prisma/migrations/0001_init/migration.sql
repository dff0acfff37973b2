
-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(6),
    "revoked_at" TIMESTAMPTZ(6),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "console_sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "traces" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "source_trace_id" TEXT NOT NULL,
    "name" TEXT,
    "trace_function_key" TEXT,
    "ingestion_type" TEXT NOT NULL DEFAULT 'captured',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "session_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "contexts" JSONB NOT NULL DEFAULT '[]',
    "external_trace" JSONB,
    "source" TEXT,
    "sdk_version" TEXT,
    "started_at" TIMESTAMPTZ(6),
    "ended_at" TIMESTAMPTZ(6),
    "expected_span_count" INTEGER,
    "completion_signal_at" TIMESTAMPTZ(6),
    "completed_at" TIMESTAMPTZ(6),
    "dropped" BOOLEAN NOT NULL DEFAULT false,
    "dropped_at" TIMESTAMPTZ(6),
    "test_run_id" UUID,
    "original_trace_id" UUID,
    "input_source_trace_id" TEXT,
    "replay_attempt" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "traces_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateTable
CREATE TABLE "spans" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "parent_span_id" UUID,
    "source_span_id" TEXT NOT NULL,
    "source_trace_id" TEXT NOT NULL,
    "source_parent_span_id" TEXT,
    "payload_type" TEXT NOT NULL,
    "source" TEXT,
    "sdk_version" TEXT,
    "trace_function_key" TEXT,
    "node_key" TEXT,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'custom',
    "function_name" TEXT,
    "error" TEXT,
    "errors" JSONB,
    "raw_span" JSONB NOT NULL,
    "content_off_by_simulation_plan" BOOLEAN NOT NULL DEFAULT false,
    "instrumentation" TEXT,
    "span_origin_name" TEXT,
    "span_origin_version" TEXT,
    "started_at" TIMESTAMPTZ(6),
    "ended_at" TIMESTAMPTZ(6),
    "is_final" BOOLEAN NOT NULL DEFAULT false,
    "duration_ms" INTEGER,
    "input_tokens" INTEGER,
    "output_tokens" INTEGER,
    "cached_tokens" INTEGER,
    "total_tokens" INTEGER,
    "model" TEXT,
    "test_run_id" UUID,
    "input_source_span_id" TEXT,
    "mocked" BOOLEAN NOT NULL DEFAULT false,
    "mock_source" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spans_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateTable
CREATE TABLE "trace_events" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(6),

    CONSTRAINT "trace_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "functions" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "functions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "function_versions" (
    "id" UUID NOT NULL,
    "function_id" UUID NOT NULL,
    "version_number" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL,
    "providers" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "function_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "function_executions" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "function_id" UUID NOT NULL,
    "result" TEXT,
    "inputs" JSONB,
    "raw_collector" JSONB,
    "source" TEXT,
    "sdk_version" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "function_executions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sim_plan_decisions" (
    "organization_id" UUID NOT NULL,
    "trace_function_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "capture_content" BOOLEAN NOT NULL,
    "updated_by_user_id" UUID,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sim_plan_decisions_pkey" PRIMARY KEY ("organization_id","trace_function_key","name")
);

-- CreateTable
CREATE TABLE "datasets" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "trace_function_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "datasets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dataset_traces" (
    "dataset_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "added_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dataset_traces_pkey" PRIMARY KEY ("dataset_id","trace_id")
);

-- CreateTable
CREATE TABLE "dataset_graders" (
    "dataset_id" UUID NOT NULL,
    "grader_id" UUID NOT NULL,
    "assigned_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dataset_graders_pkey" PRIMARY KEY ("dataset_id","grader_id")
);

-- CreateTable
CREATE TABLE "assertions" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "assertion" TEXT NOT NULL,
    "pass_criteria" TEXT,
    "fail_criteria" TEXT,
    "target_on_evaluated_trace" JSONB,
    "check" JSONB,
    "category_assertion_id" TEXT,
    "justification" JSONB,
    "category_justification" TEXT,
    "human_note" TEXT,
    "source" TEXT NOT NULL DEFAULT 'agent',
    "author_user_id" UUID,
    "approval_state" TEXT NOT NULL DEFAULT 'pending',
    "approved_by_user_id" UUID,
    "approved_at" TIMESTAMPTZ(6),
    "archived_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assertions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trace_labels" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "assertion_id" UUID,
    "label_status" TEXT NOT NULL,
    "label" BOOLEAN,
    "annotation" TEXT,
    "confidence" TEXT,
    "label_source" TEXT NOT NULL,
    "approved" BOOLEAN NOT NULL DEFAULT false,
    "approval_state" TEXT NOT NULL DEFAULT 'pending',
    "approved_by_user_id" UUID,
    "approved_at" TIMESTAMPTZ(6),
    "author_user_id" UUID,
    "test_run_id" UUID,
    "superseded_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trace_labels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "graders" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "trace_function_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "live" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "graders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "grader_labels" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "grader_id" UUID NOT NULL,
    "label" BOOLEAN,
    "label_reason" TEXT,
    "failure_diagnostic" TEXT,
    "label_confidence" TEXT,
    "source" TEXT NOT NULL,
    "evaluated_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "grader_labels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "grader_reruns" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "dataset_id" UUID NOT NULL,
    "grader_ids" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "total_traces" INTEGER NOT NULL DEFAULT 0,
    "completed_traces" INTEGER NOT NULL DEFAULT 0,
    "traces_graded" INTEGER,
    "graders_run" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(6),

    CONSTRAINT "grader_reruns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "experiments" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT,
    "notes" TEXT,
    "trace_function_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "selection" JSONB NOT NULL,
    "grader_ids" JSONB NOT NULL DEFAULT '[]',
    "dataset_ids" JSONB NOT NULL DEFAULT '[]',
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "judge_assertions" BOOLEAN NOT NULL DEFAULT true,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "code_change" JSONB,
    "planned_trace_count" INTEGER,
    "created_by_user_id" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(6),

    CONSTRAINT "experiments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "experiment_items" (
    "experiment_id" UUID NOT NULL,
    "original_trace_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "experiment_items_pkey" PRIMARY KEY ("experiment_id","original_trace_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_organization_id_idx" ON "users"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "console_sessions_token_hash_key" ON "console_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "console_sessions_user_id_idx" ON "console_sessions"("user_id");

-- CreateIndex
CREATE INDEX "traces_organization_id_trace_function_key_started_at_idx" ON "traces"("organization_id", "trace_function_key", "started_at" DESC);

-- CreateIndex
CREATE INDEX "traces_organization_id_created_at_idx" ON "traces"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "traces_organization_id_test_run_id_idx" ON "traces"("organization_id", "test_run_id");

-- CreateIndex
CREATE INDEX "spans_organization_id_trace_id_started_at_idx" ON "spans"("organization_id", "trace_id", "started_at");

-- CreateIndex
CREATE INDEX "spans_organization_id_node_key_name_idx" ON "spans"("organization_id", "node_key", "name");

-- CreateIndex
CREATE INDEX "trace_events_processed_at_id_idx" ON "trace_events"("processed_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "trace_events_organization_id_trace_id_kind_key" ON "trace_events"("organization_id", "trace_id", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "functions_organization_id_name_key" ON "functions"("organization_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "function_versions_function_id_version_number_key" ON "function_versions"("function_id", "version_number");

-- CreateIndex
CREATE INDEX "function_executions_organization_id_function_id_created_at_idx" ON "function_executions"("organization_id", "function_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "datasets_organization_id_updated_at_id_idx" ON "datasets"("organization_id", "updated_at" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "datasets_organization_id_trace_function_key_name_key" ON "datasets"("organization_id", "trace_function_key", "name");

-- CreateIndex
CREATE INDEX "dataset_traces_organization_id_trace_id_idx" ON "dataset_traces"("organization_id", "trace_id");

-- CreateIndex
CREATE INDEX "assertions_organization_id_trace_id_idx" ON "assertions"("organization_id", "trace_id");

-- CreateIndex
CREATE INDEX "trace_labels_organization_id_trace_id_superseded_at_idx" ON "trace_labels"("organization_id", "trace_id", "superseded_at");

-- CreateIndex
CREATE UNIQUE INDEX "graders_organization_id_trace_function_key_name_key" ON "graders"("organization_id", "trace_function_key", "name");

-- CreateIndex
CREATE INDEX "grader_labels_organization_id_grader_id_evaluated_at_idx" ON "grader_labels"("organization_id", "grader_id", "evaluated_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "grader_labels_organization_id_trace_id_grader_id_key" ON "grader_labels"("organization_id", "trace_id", "grader_id");

-- CreateIndex
CREATE INDEX "grader_reruns_organization_id_dataset_id_created_at_idx" ON "grader_reruns"("organization_id", "dataset_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "experiments_organization_id_created_at_idx" ON "experiments"("organization_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "function_versions" ADD CONSTRAINT "function_versions_function_id_fkey" FOREIGN KEY ("function_id") REFERENCES "functions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "function_executions" ADD CONSTRAINT "function_executions_function_id_fkey" FOREIGN KEY ("function_id") REFERENCES "functions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dataset_traces" ADD CONSTRAINT "dataset_traces_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dataset_graders" ADD CONSTRAINT "dataset_graders_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dataset_graders" ADD CONSTRAINT "dataset_graders_grader_id_fkey" FOREIGN KEY ("grader_id") REFERENCES "graders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiment_items" ADD CONSTRAINT "experiment_items_experiment_id_fkey" FOREIGN KEY ("experiment_id") REFERENCES "experiments"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written additions (Prisma's schema language cannot express these).

-- Large JSON documents: skip PostgreSQL's compression attempt, which costs ~40% of each row's
-- insert time on big jsonb values (measured; see bench/README.md). Works on PGlite too.
ALTER TABLE "spans" ALTER COLUMN "raw_span" SET STORAGE EXTERNAL;
ALTER TABLE "traces" ALTER COLUMN "external_trace" SET STORAGE EXTERNAL;

-- One current verdict per target (trace, assertion or none); older ones are kept as history.
CREATE UNIQUE INDEX "trace_labels_current_key" ON "trace_labels" (
  "organization_id", "trace_id", COALESCE("assertion_id", '00000000-0000-0000-0000-000000000000'::uuid)
) WHERE "superseded_at" IS NULL;

-- Only one active grader re-run per dataset, enforced by the database.
CREATE UNIQUE INDEX "grader_reruns_one_active_key" ON "grader_reruns" ("dataset_id")
  WHERE "status" IN ('pending', 'running');

-- Completion counts finished spans per trace.
CREATE INDEX "spans_final_by_trace_idx" ON "spans" ("organization_id", "trace_id") WHERE "is_final";
