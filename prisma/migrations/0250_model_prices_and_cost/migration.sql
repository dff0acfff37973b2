-- Cost (docs/cost.md): each LLM span's cost is computed at ingestion from its tokens and the model price table
-- (shipped defaults in code, an organization's overrides and additions here), and summed per trace as its spans
-- become final. A price change never replaces the previous one: each change is a new version of the price, the
-- old version kept with who replaced it and when. Recomputation over a time range runs as a job whose progress
-- is a row of cost_recomputes. Every table carries organization_id first in its keys (distributed on Citus) and, like
-- traces and spans, no foreign key to organizations.

ALTER TABLE "spans" ADD COLUMN "reasoning_tokens" INTEGER;
ALTER TABLE "spans" ADD COLUMN "cost_usd" NUMERIC(20,10);
ALTER TABLE "traces" ADD COLUMN "cost_usd" NUMERIC(20,10);

-- CreateTable
CREATE TABLE "model_prices" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "model_pattern" TEXT NOT NULL,
    "provider" TEXT,
    "input_per_mtok" NUMERIC(20,10) NOT NULL,
    "output_per_mtok" NUMERIC(20,10) NOT NULL,
    "cached_input_per_mtok" NUMERIC(20,10),
    "reasoning_per_mtok" NUMERIC(20,10),
    "effective_from" DATE NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "changed_by_user_id" UUID,
    "changed_at" TIMESTAMPTZ(6) NOT NULL,
    "superseded_at" TIMESTAMPTZ(6),

    CONSTRAINT "model_prices_pkey" PRIMARY KEY ("organization_id","id","version")
);

-- The current version of each price: at most one per (organization, price).
CREATE UNIQUE INDEX "model_prices_current_key" ON "model_prices"("organization_id", "id") WHERE "superseded_at" IS NULL;

-- CreateTable
CREATE TABLE "cost_recomputes" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "range_from" TIMESTAMPTZ(6) NOT NULL,
    "range_to" TIMESTAMPTZ(6) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "traces_total" INTEGER NOT NULL DEFAULT 0,
    "traces_done" INTEGER NOT NULL DEFAULT 0,
    "spans_priced" INTEGER NOT NULL DEFAULT 0,
    "spans_unpriced" INTEGER NOT NULL DEFAULT 0,
    "requested_by_user_id" UUID,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "finished_at" TIMESTAMPTZ(6),

    CONSTRAINT "cost_recomputes_pkey" PRIMARY KEY ("organization_id","id")
);
