// Organizations, users and API keys: used by the REST layer (authenticate), the admin CLI and
// the headless first run. Dependencies come in as parameters (docs/architecture.md, "Layers").
import type { Database, DbClient } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { newId } from "../ids.ts";
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-key.ts";
import * as q from "./auth.queries.ts";
import { ZCreateOrganizationInput, ZEmail, type TAuthContext, type TCreateOrganizationInput } from "./auth.schemas.ts";
import { hashPassword } from "./passwords.ts";

const unauthorized = (message: string) => new AppError("unauthorized", message);

/** Only write last_used_at when it is older than this, so reads do not become writes on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves `Authorization: Bearer <key>` to the key's organization and user, or throws 401. */
export async function authenticateApiKey(db: DbClient, authorization: string | null): Promise<TAuthContext> {
  if (!authorization || authorization.trim() === "") {
    throw unauthorized("Missing API key: send it as 'Authorization: Bearer <API_KEY>'.");
  }
  const match = /^Bearer\s+(.*)$/i.exec(authorization.trim());
  const key = match?.[1]?.trim() ?? "";
  if (key === "") throw unauthorized("Empty API key: send it as 'Authorization: Bearer <API_KEY>'.");
  if (!isWellFormedApiKey(key)) throw unauthorized("Invalid API key.");
  const row = await q.findActiveApiKeyByHash(db, hashApiKey(key));
  if (!row) throw unauthorized("Invalid or revoked API key.");
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await q.touchApiKey(db, row.id, now).catch(() => undefined);
  }
  return { organizationId: row.organizationId, userId: row.userId, apiKeyId: row.id };
}

export interface CreatedOrganization {
  organizationId: string;
  userId: string;
  apiKey: string;
}

/** Creates an organization with its first user and API key. A taken email is a 409. */
export async function createOrganization(db: Database, input: TCreateOrganizationInput): Promise<CreatedOrganization> {
  const parsed = ZCreateOrganizationInput.parse(input);
  const apiKey = parsed.apiKey ?? generateApiKey();
  if (!isWellFormedApiKey(apiKey)) {
    throw new AppError("bad_request", "The API key must be 'rp_' followed by at least 32 letters, digits, '-' or '_'.");
  }
  if (await q.findUserByEmail(db, parsed.email)) {
    throw new AppError("conflict", `A user with email ${parsed.email} already exists.`);
  }
  if (await q.findApiKeyByHash(db, hashApiKey(apiKey))) {
    throw new AppError("conflict", "That API key is already registered.");
  }
  const organizationId = newId();
  const userId = newId();
  const passwordHash = await hashPassword(parsed.password);
  await db.transaction(async (tx) => {
    await q.insertOrganization(tx, { id: organizationId, name: parsed.name });
    // The organization's first user owns it (docs/operations.md, "People and invitations").
    await q.insertUser(tx, { id: userId, organizationId, email: parsed.email, passwordHash, role: "owner" });
    await q.insertApiKey(tx, { id: newId(), organizationId, userId, name: "default", prefix: displayPrefix(apiKey), keyHash: hashApiKey(apiKey) });
  });
  return { organizationId, userId, apiKey };
}

/** Creates a new API key for the user with this email; the key is returned once and never stored. */
export async function createApiKeyForEmail(db: DbClient, email: string, name = ""): Promise<{ apiKey: string; id: string }> {
  const user = await q.findUserByEmail(db, ZEmail.parse(email));
  if (!user) throw new AppError("not_found", `No user with email ${email}.`);
  return createApiKeyForUser(db, { userId: user.id, organizationId: user.organizationId }, name);
}

export async function createApiKeyForUser(
  db: DbClient,
  user: { userId: string; organizationId: string },
  name = "",
): Promise<{ apiKey: string; id: string }> {
  const apiKey = generateApiKey();
  const id = newId();
  await q.insertApiKey(db, { id, organizationId: user.organizationId, userId: user.userId, name, prefix: displayPrefix(apiKey), keyHash: hashApiKey(apiKey) });
  return { apiKey, id };
}

export interface InitialOrganizationSettings {
  orgName?: string;
  email?: string;
  password?: string;
  apiKey?: string;
}

/**
 * Headless first run (README.md, "Get an API key"): when the database has no organization and the
 * REPRISE_INIT_* values are set, create the first organization, user and key. Idempotent.
 */
export async function ensureInitialOrganization(
  db: Database,
  settings: InitialOrganizationSettings,
): Promise<"created" | "exists" | "not-configured"> {
  const { orgName, email, password, apiKey } = settings;
  if (!orgName || !email || !password) return "not-configured";
  if ((await q.countOrganizations(db)) > 0) return "exists";
  try {
    await createOrganization(db, { name: orgName, email, password, apiKey });
    return "created";
  } catch (error) {
    // Two instances starting together: the other one won the race (seen by the email check, or by the
    // unique index when both passed the check at once).
    if (error instanceof AppError && error.code === "conflict") return "exists";
    if ((error as { code?: unknown } | null)?.code === "P2002") return "exists";
    throw error;
  }
}
