// An organization's single sign-on settings (docs/operations.md, "Single sign-on"): read by anyone of the organization
// without the client secret, which is never shown back; changed by admins and owners.
import type { DbClient } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { requireUserManager } from "../people/actor.ts";
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

/** Saves the provider; a new connection needs its client secret, a later change keeps the stored one when omitted. */
export async function setSsoConfig(db: DbClient, actor: TActor, input: TSsoConfigInput) {
  await requireUserManager(db, actor);
  const existing = await q.findConnection(db, actor.organizationId);
  if (!existing && !input.clientSecret) throw new AppError("bad_request", "The client secret is required when single sign-on is first set up.");
  if (!input.enabled && !input.passwordSignIn) {
    throw new AppError("bad_request", "Password sign-in can only be turned off while single sign-on is enabled: nobody could sign in.");
  }
  const row = await q.upsertConnection(db, { organizationId: actor.organizationId, ...input, issuer: input.issuer.replace(/\/+$/, ""), updatedByUserId: actor.userId });
  return toSsoConfigResponse(row);
}
