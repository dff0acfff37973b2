-- The audit log (docs/operations.md, "Audit log"): who changed what, with the value before and after, written in
-- the same transaction as the change. Keyed by organization first, so it distributes with the organization on
-- Citus. No foreign key to users or keys: an event outlives the user or key that made it.
CREATE TABLE "audit_events" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_via" TEXT NOT NULL,
    "actor_user_id" UUID,
    "actor_api_key_id" UUID,
    "actor_tool" TEXT,
    "kind" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("organization_id", "id"),
    CONSTRAINT "audit_events_actor_via_check" CHECK ("actor_via" IN ('console', 'rest', 'mcp', 'cli'))
);
CREATE INDEX "audit_events_organization_id_at_idx" ON "audit_events" ("organization_id", "at" DESC, "id" DESC);
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE;
