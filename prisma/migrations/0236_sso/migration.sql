-- Single sign-on over OpenID Connect (docs/operations.md, "Single sign-on"): one provider per organization, and the
-- sign-ins in flight (state, nonce and PKCE verifier kept on the server; the state is used once).
CREATE TABLE "sso_connections" (
    "organization_id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "jit_domains" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "jit_role" TEXT NOT NULL DEFAULT 'member',
    "password_sign_in" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by_user_id" UUID,
    CONSTRAINT "sso_connections_pkey" PRIMARY KEY ("organization_id")
);
ALTER TABLE "sso_connections" ADD CONSTRAINT "sso_connections_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

CREATE TABLE "sso_logins" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "state_hash" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "sso_logins_pkey" PRIMARY KEY ("organization_id", "id")
);
CREATE UNIQUE INDEX "sso_logins_organization_id_state_hash_key" ON "sso_logins"("organization_id", "state_hash");
ALTER TABLE "sso_logins" ADD CONSTRAINT "sso_logins_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
