-- GenAI events that arrive as OpenTelemetry log records (POST /v1/logs, docs/otel.md): the messages of
-- instrumentations that emit them as events rather than span attributes. Each is kept once per span
-- (event_key is a hash of the event, so a retried export adds nothing), and the span's input and
-- output are mapped again from its attributes and these events, whichever arrives first.
CREATE TABLE "otel_span_events" (
    "organization_id" UUID NOT NULL,
    "span_id" UUID NOT NULL,
    "trace_id" UUID NOT NULL,
    "event_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "time" TIMESTAMPTZ(6),
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "body" JSONB,
    -- Position in its request: events of one call often share a timestamp, and their order is the conversation's.
    "seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    CONSTRAINT "otel_span_events_pkey" PRIMARY KEY ("organization_id", "span_id", "event_key")
);
