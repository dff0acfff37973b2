// Signing in through an organization's OpenID Connect provider (docs/operations.md, "Single sign-on"): authorization
// code with PKCE. The state names the organization and is used once (its sign-in row is deleted by the first
// callback); the nonce and the PKCE verifier stay on the server. People are matched by verified e-mail; a new address
// of a domain the organization admits joins it with the default role.
import { createHash, randomBytes } from "node:crypto";
import type { Database, DbClient } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { openSession, type SignInResult, type TSessionClient } from "../sessions/sessions.service.ts";
import { authorizationUrl, describeOidcError, discover, exchangeCode, randomSecrets, type TFetch } from "./oidc-client.ts";
import * as q from "./sso.queries.ts";

/** How long a sign-in may stay at the provider. */
export const SSO_LOGIN_TTL_MS = 15 * 60_000;
/** A password hash no password matches: people who came in through the provider sign in there. */
const NO_PASSWORD = "sso$none";

const hashState = (state: string) => createHash("sha256").update(state, "utf8").digest("hex");
const refused = (message: string) => new AppError("forbidden", message);

/** The organization an e-mail signs in to: its user's, else the one whose provider admits its domain. */
async function organizationForEmail(db: DbClient, email: string): Promise<string> {
  const user = await q.findUserByEmail(db, email);
  if (user && !user.removedAt) return user.organizationId;
  const domain = email.split("@")[1] ?? "";
  const admitting = await q.findConnectionsAdmittingDomain(db, domain);
  if (admitting.length === 1) return admitting[0]!.organizationId;
  throw new AppError("not_found", `No single sign-on is set up for ${email}.`);
}

async function enabledConnection(db: DbClient, organizationId: string) {
  const connection = await q.findConnection(db, organizationId);
  if (!connection?.enabled) throw new AppError("not_found", "Single sign-on is not set up for this organization.");
  return connection;
}

/** Starts a sign-in: returns the provider's authorization URL and the state the browser keeps in a cookie. */
export async function startSsoLogin(db: DbClient, email: string, redirectUri: string, fetchImpl?: TFetch) {
  const organizationId = await organizationForEmail(db, email);
  const connection = await enabledConnection(db, organizationId);
  const config = await discover(connection, fetchImpl).catch((error: unknown) => {
    throw new AppError("service_unavailable", `The sign-in provider at ${connection.issuer} could not be reached: ${(error as Error).message}`);
  });
  const state = `${organizationId}.${randomBytes(24).toString("base64url")}`;
  const secrets = randomSecrets(state);
  const now = new Date();
  await q.deleteExpiredLogins(db, organizationId, now);
  await q.insertLogin(db, {
    organizationId,
    id: newId(),
    stateHash: hashState(state),
    nonce: secrets.nonce,
    codeVerifier: secrets.codeVerifier,
    expiresAt: new Date(now.getTime() + SSO_LOGIN_TTL_MS),
  });
  return { url: await authorizationUrl(config, redirectUri, secrets, email), state };
}

export interface TSsoCallback {
  /** The full callback URL the provider sent the browser to (code, state, iss). */
  callbackUrl: URL;
  /** The state the browser kept in its cookie when the sign-in started. */
  cookieState: string | null;
  client: TSessionClient;
}

/** Completes a sign-in: verifies the provider's answer, finds or admits the person, opens a console session. */
export async function completeSsoLogin(db: Database, callback: TSsoCallback, fetchImpl?: TFetch): Promise<SignInResult> {
  const params = callback.callbackUrl.searchParams;
  const providerError = params.get("error");
  if (providerError) throw refused(`The provider refused the sign-in: ${params.get("error_description") ?? providerError}.`);
  const state = params.get("state") ?? "";
  const organizationId = /^([0-9a-f-]{36})\./.exec(state)?.[1];
  if (!organizationId) throw new AppError("bad_request", "The sign-in answer carries no valid state. Start again.");
  if (callback.cookieState !== state) throw refused("This sign-in did not start in this browser. Start again.");
  const login = await q.takeLogin(db, organizationId, hashState(state));
  if (!login) throw refused("This sign-in was already used or is unknown (a replayed state). Start again.");
  if (login.expiresAt <= new Date()) throw refused("This sign-in took too long. Start again.");
  const connection = await enabledConnection(db, organizationId);

  let identity;
  try {
    const config = await discover(connection, fetchImpl);
    identity = await exchangeCode(config, callback.callbackUrl, { state, nonce: login.nonce, codeVerifier: login.codeVerifier });
  } catch (error) {
    throw refused(describeOidcError(error));
  }
  if (!identity.email) throw refused("The provider did not share an e-mail address: allow the \"email\" scope.");
  if (!identity.emailVerified) throw refused(`The provider has not verified ${identity.email}, so it cannot sign you in.`);

  const userId = await findOrAdmitUser(db, organizationId, connection, identity.email, identity.name);
  return openSession(db, userId, callback.client, "sso");
}

async function findOrAdmitUser(
  db: DbClient,
  organizationId: string,
  connection: { jitDomains: string[]; jitRole: string },
  email: string,
  name: string | null,
): Promise<string> {
  const user = await q.findUserByEmail(db, email);
  if (user) {
    if (user.organizationId !== organizationId) throw refused(`${email} belongs to another organization.`);
    if (user.removedAt) throw refused(`${email} was removed from this organization.`);
    return user.id;
  }
  const domain = email.split("@")[1] ?? "";
  if (!connection.jitDomains.includes(domain)) {
    throw refused(`${email} has no account here, and ${domain} is not a domain this organization admits. Ask an admin for an invitation.`);
  }
  const id = newId();
  try {
    await q.insertUser(db, { id, organizationId, email, name, passwordHash: NO_PASSWORD, role: connection.jitRole });
    return id;
  } catch (error) {
    // The same person arriving twice at once: the unique e-mail decides, and the other sign-in finds them.
    if ((error as { code?: string }).code === "P2002") return findOrAdmitUser(db, organizationId, connection, email, name);
    throw error;
  }
}
