-- One rule's deliveries in order (docs/alerts.md, "Delivery"): an event is delivered only once every earlier event
-- of its rule is settled, delivered or given up after its last retry. `settled_at` says when; null while its
-- delivery is still to be tried. The events recorded before this migration are all settled: none of them waits on
-- another, and none makes a newer one wait.
ALTER TABLE "alert_events" ADD COLUMN "settled_at" TIMESTAMPTZ(6);
UPDATE "alert_events" SET "settled_at" = "at";
