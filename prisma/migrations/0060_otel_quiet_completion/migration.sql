-- Native OpenTelemetry traces (docs/otel.md) carry no completion signal and no span count: they complete
-- once their root span has arrived and no span of them has arrived for a quiet period. A span arriving
-- after completion is stored and marks the trace amended (graders re-run once).
ALTER TABLE "traces" ADD COLUMN "completion_mode" TEXT NOT NULL DEFAULT 'signal';
ALTER TABLE "traces" ADD COLUMN "last_span_at" TIMESTAMPTZ(6);
ALTER TABLE "traces" ADD COLUMN "amended_at" TIMESTAMPTZ(6);

-- The quiet-period sweeper reads pending quiet traces and amended ones by their last arrival.
CREATE INDEX "traces_quiet_pending_idx" ON "traces" ("last_span_at") WHERE "completion_mode" = 'quiet' AND "status" = 'pending';
CREATE INDEX "traces_quiet_amended_idx" ON "traces" ("last_span_at") WHERE "completion_mode" = 'quiet' AND "amended_at" IS NOT NULL;
