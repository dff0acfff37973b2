-- The dashboard's reads (docs/scaling.md, "Dashboard"): every chart reads one organization's traces or LLM spans
-- in a time range. These indexes hold what the charts aggregate, so each chart is one index-only range scan.
-- Hand-written: Prisma's schema language cannot express INCLUDE with a partial WHERE.

-- Traces per interval, errors, latency percentiles, by trace function.
CREATE INDEX "traces_dashboard_idx" ON "traces" ("organization_id", "started_at")
  INCLUDE ("trace_function_key", "status", "ended_at", "cost_usd", "test_run_id") WHERE NOT "dropped";

-- Tokens and cost by model and trace function, and the spans no price matched: LLM spans only (a model).
CREATE INDEX "spans_llm_dashboard_idx" ON "spans" ("organization_id", "started_at")
  INCLUDE ("model", "trace_function_key", "input_tokens", "output_tokens", "total_tokens", "cost_usd")
  WHERE "model" IS NOT NULL;
