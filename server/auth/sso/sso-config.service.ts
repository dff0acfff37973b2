// An organization's single sign-on settings (docs/operations.md, "Single sign-on"): read by anyone of the organization
// without the client secret, which is never shown back; changed by admins and owners.
import type { Database, DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { recordAuditEvents } from "../audit/audit.service.ts";
import { auditActorOf, requireUserManager } from "../people/actor.ts";
import type { TActor } from "../people/people.schemas.ts";
import * as q from "./sso.queries.ts";
import type { TSsoConfigInput } from "./sso.schemas.ts";

type ConnectionRow = NonNullable<Awaited<ReturnType<typeof q.findConnection>>>;

function toSsoConfigResponse(row: ConnectionRow | null) {
  if (!row) return null;
  const { clientSecret, organizationId: _organizationId, ...shown } = row;
  return { ...shown, hasClientSecret: clientSecret !== "" };
}

export async function getSsoConfig(db: DbClient, organizationId: string) {
  return toSsoConfigResponse(await q.findConnection(db, organizationId));
}

/**
 * Saves the provider; a new connection needs its client secret, a later change keeps the stored one when omitted.
 * Each save is kept as a version (who, when, what), so it can be seen and restored.
 */
export async function setSsoConfig(db: Database, actor: TActor, input: TSsoConfigInput) {
  await requireUserManager(db, actor);
  if (!input.enabled && !input.passwordSignIn) {
    throw new AppError("bad_request", "Password sign-in can only be turned off while single sign-on is enabled: nobody could sign in.");
  }
  return db.transaction(async (tx) => {
    await q.lockSsoOfOrganization(tx, actor.organizationId);
    const existing = await q.findConnection(tx, actor.organizationId);
    if (!existing && !input.clientSecret) throw new AppError("bad_request", "The client secret is required when single sign-on is first set up.");
    const row = await q.upsertConnection(tx, { organizationId: actor.organizationId, ...input, issuer: input.issuer.replace(/\/+$/, ""), updatedByUserId: actor.userId });
    const { organizationId, issuer, clientId, clientSecret, enabled, jitDomains, jitRole, passwordSignIn } = row;
    const version = (await q.findLatestVersionNumber(tx, organizationId)) + 1;
    await q.insertVersion(tx, { organizationId, version, issuer, clientId, clientSecret, enabled, jitDomains, jitRole, passwordSignIn, savedByUserId: actor.userId });
    // Never the client secret: only whether it changed.
    const shown = (c: { issuer: string; clientId: string; enabled: boolean; jitDomains: string[]; jitRole: string; passwordSignIn: boolean }) =>
      ({ issuer: c.issuer, clientId: c.clientId, enabled: c.enabled, jitDomains: c.jitDomains, jitRole: c.jitRole, passwordSignIn: c.passwordSignIn });
    await recordAuditEvents(tx, organizationId, auditActorOf(actor), [{
      kind: "sso.changed", targetType: "sso", targetId: organizationId,
      before: existing ? shown(existing) : null,
      after: { ...shown(row), version, clientSecretChanged: existing?.clientSecret !== clientSecret },
    }]);
    return { ...toSsoConfigResponse(row)!, version };
  });
}

/** The saved states, newest first, with who saved each and whether its secret differs from the one before. */
export async function findSsoVersions(db: DbClient, actor: TActor) {
  await requireUserManager(db, actor);
  const rows = await q.findVersions(db, actor.organizationId);
  const emails = new Map((await q.findUserEmails(db, actor.organizationId, [...new Set(rows.map((r) => r.savedByUserId))])).map((u) => [u.id, u.email]));
  return rows.map(({ clientSecret, savedByUserId, ...row }, i) => ({
    ...row,
    savedBy: emails.get(savedByUserId) ?? null,
    secretChanged: i === rows.length - 1 || rows[i + 1]!.clientSecret !== clientSecret,
  }));
}

/** Puts a saved state back (its secret too), as a new version saved by the actor. */
export async function restoreSsoVersion(db: Database, actor: TActor, version: number) {
  const row = await q.findVersion(db, actor.organizationId, version);
  if (!row) throw notFound("Single sign-on version");
  const { issuer, clientId, clientSecret, enabled, jitDomains, jitRole, passwordSignIn } = row;
  return setSsoConfig(db, actor, { issuer, clientId, clientSecret, enabled, jitDomains, jitRole: jitRole as TSsoConfigInput["jitRole"], passwordSignIn });
}
