-- People (docs/operations.md, "People and invitations") and sessions (docs/operations.md, "Sessions").
--
-- A user's role in the organization. Existing users were all allowed everything: they become owners. Written so that
-- it is a no-op when the roles work added the same column first.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "role" TEXT NOT NULL DEFAULT 'owner';
ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'member';
-- A removed user is kept (who they were stays readable, and the removal can be undone); they cannot sign in, and
-- their sessions and API keys ended when they were removed.
ALTER TABLE "users" ADD COLUMN "removed_at" TIMESTAMPTZ(6);
ALTER TABLE "users" ADD COLUMN "removed_by_user_id" UUID;
ALTER TABLE "users" ADD COLUMN "password_changed_at" TIMESTAMPTZ(6);

-- What a person sees in their list of sessions.
ALTER TABLE "console_sessions" ADD COLUMN "user_agent" TEXT NOT NULL DEFAULT '';
ALTER TABLE "console_sessions" ADD COLUMN "ip" TEXT NOT NULL DEFAULT '';
ALTER TABLE "console_sessions" ADD COLUMN "method" TEXT NOT NULL DEFAULT 'password';

-- Invitations by link: only the token's sha256 is stored; single use, expiring, revocable.
CREATE TABLE "invitations" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by_user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "accepted_at" TIMESTAMPTZ(6),
    "accepted_user_id" UUID,
    "revoked_at" TIMESTAMPTZ(6),
    "revoked_by_user_id" UUID,
    CONSTRAINT "invitations_pkey" PRIMARY KEY ("organization_id", "id")
);
CREATE UNIQUE INDEX "invitations_organization_id_token_hash_key" ON "invitations"("organization_id", "token_hash");
-- A link names no organization: it is found by its hash alone.
CREATE INDEX "invitations_token_hash_idx" ON "invitations"("token_hash");
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- One-time password-reset links an admin made for a user: only the token's sha256 is stored.
CREATE TABLE "password_resets" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by_user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "used_at" TIMESTAMPTZ(6),
    CONSTRAINT "password_resets_pkey" PRIMARY KEY ("organization_id", "id")
);
CREATE UNIQUE INDEX "password_resets_organization_id_token_hash_key" ON "password_resets"("organization_id", "token_hash");
CREATE INDEX "password_resets_token_hash_idx" ON "password_resets"("token_hash");
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
