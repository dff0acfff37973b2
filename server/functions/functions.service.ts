// Prompt function use cases (docs/api/functions.md): save a function (a changed prompt makes a new
// version) and look one up by name or id with its latest version.
import type { Database } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { isUuid, newId } from "../ids.ts";
import * as q from "./functions.queries.ts";
import type { TFunction, TFunctionCreate } from "./functions.schemas.ts";

/**
 * Creates the function with version 1, or, for an existing name, adds a version when the prompt (or the providers,
 * when given) changed. `created` is false for an existing name (docs/api/functions.md, "POST /api/sdk/functions").
 */
export async function createFunction(db: Database, organizationId: string, input: TFunctionCreate): Promise<{ function: TFunction; created: boolean }> {
  return db.transaction(async (tx) => {
    const created = await q.insertFunctionIfMissing(tx, organizationId, newId(), input.name);
    const functionId = await q.lockFunctionByName(tx, organizationId, input.name);
    const latest = await q.selectLatestVersion(tx, organizationId, functionId);
    const providers = input.providers ?? (Array.isArray(latest?.providers) ? latest.providers : []);
    const changed = !latest || latest.prompt !== input.prompt || stableJson(latest.providers) !== stableJson(providers);
    let version = latest;
    if (changed) {
      version = { id: newId(), version_number: (latest?.version_number ?? 0) + 1, prompt: input.prompt, providers };
      await q.insertVersion(tx, organizationId, { id: version.id, functionId, versionNumber: version.version_number, prompt: input.prompt, providers: JSON.stringify(providers) });
    }
    const v = version!;
    return {
      function: { id: functionId, name: input.name, versionId: v.id, versionNumber: v.version_number, prompt: v.prompt, providers: asArray(v.providers) },
      created,
    };
  });
}

/** The function of that name with its latest version, or null (the SDK then raises "not found"). */
export async function findFunctionByName(db: Database, organizationId: string, name: string): Promise<TFunction | null> {
  const row = await q.selectFunctionByName(db, organizationId, name);
  return row ? toFunctionResponse(row) : null;
}

/** The function with that id (functions/{id}/traces checks it exists); unknown or foreign is a 404. */
export async function getFunction(db: Database, organizationId: string, id: string): Promise<TFunction> {
  const row = isUuid(id) ? await q.selectFunctionById(db, organizationId, id) : null;
  const fn = row ? toFunctionResponse(row) : null;
  if (!fn) throw notFound(`Function ${id}`);
  return fn;
}

export function toFunctionResponse(row: q.TFunctionRow): TFunction | null {
  const v = row.versions[0];
  if (!v) return null;
  return { id: row.id, name: row.name, versionId: v.id, versionNumber: v.versionNumber, prompt: v.prompt, providers: asArray(v.providers) };
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** JSON with object keys sorted: jsonb reorders keys, so plain JSON text would see a change where none is. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v,
  );
}
