-- An amended native OpenTelemetry trace waits for its one re-grade (docs/otel.md, "Completion"). The sweep
-- looks only at traces still waiting, so its cost does not grow with every trace ever amended.
ALTER TABLE "traces" ADD COLUMN "amendment_pending" BOOLEAN NOT NULL DEFAULT false;
DROP INDEX IF EXISTS "traces_quiet_amended_idx";
CREATE INDEX "traces_amendment_pending_idx" ON "traces" ("last_span_at") WHERE "amendment_pending";
