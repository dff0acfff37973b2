-- API key scopes and expiry (docs/operations.md, "Roles and API key scopes"). Every key that existed before
-- scopes keeps today's full access: scope admin, no expiry. New keys name their scope.
ALTER TABLE "api_keys" ADD COLUMN "scope" TEXT NOT NULL DEFAULT 'admin';
ALTER TABLE "api_keys" ALTER COLUMN "scope" DROP DEFAULT;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scope_check" CHECK ("scope" IN ('ingest', 'read', 'read-write', 'admin'));
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(6);
