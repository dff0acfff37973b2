// Who an API key acts as, and who else belongs to its organization (the MCP account tools; the key's
// organization scopes everything it reads and writes).
import type { DbClient } from "../db/client.ts";
import { notFound } from "../errors.ts";
import * as q from "./account.queries.ts";
import type { TAuthContext } from "./auth.schemas.ts";

export interface TApiKeyContext {
  organization: { id: string; name: string };
  user: { id: string; email: string; name: string | null };
  apiKey: { id: string; name: string; prefix: string; createdAt: string };
}

export async function getApiKeyContext(db: DbClient, auth: TAuthContext): Promise<TApiKeyContext> {
  const row = await q.selectApiKeyContext(db, auth.apiKeyId);
  if (!row || row.organization.id !== auth.organizationId) throw notFound("API key");
  return {
    organization: row.organization,
    user: row.user,
    apiKey: { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt.toISOString() },
  };
}

export async function findOrganizationMembers(db: DbClient, organizationId: string) {
  return q.selectMembers(db, organizationId);
}
