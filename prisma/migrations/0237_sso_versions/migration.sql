-- Every saved state of an organization's single sign-on settings, with who saved it, so a change never silently
-- replaces what a person decided and an earlier state can be restored (docs/operations.md, "Single sign-on").
CREATE TABLE "sso_connection_versions" (
    "organization_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "jit_domains" TEXT[] NOT NULL,
    "jit_role" TEXT NOT NULL,
    "password_sign_in" BOOLEAN NOT NULL,
    "saved_by_user_id" UUID NOT NULL,
    "saved_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sso_connection_versions_pkey" PRIMARY KEY ("organization_id", "version")
);
ALTER TABLE "sso_connection_versions" ADD CONSTRAINT "sso_connection_versions_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
