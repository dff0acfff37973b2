-- Roles per organization (docs/operations.md, "Roles and API key scopes"). Every user who existed before roles
-- becomes an owner, so nobody loses what they could do; users added later are members unless given a role.
ALTER TABLE "users" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'owner';
ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'member';
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("role" IN ('owner', 'admin', 'member', 'viewer'));
