// Redaction rules: read, change (a new version each time), restore, and the compiled rules the doors apply
// (docs/operations.md, "Redaction"). The compiled rules are cached per organization: an organization without
// rules costs ingestion a map lookup, not a query. A change on this instance drops its entry at once; other
// instances see it within CACHE_TTL_MS.
import { recordAuditEvents } from "../auth/audit/audit.service.ts";
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";
import type { Database, DbClient } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import * as q from "./redaction.queries.ts";
import { Redactor, type TKeep, type TRedactionCounts } from "./redactor.ts";
import { EMPTY_RULES, ZRedactionRules, type TRedactionRules, type TRedactionSettings } from "./redaction.schemas.ts";

/** How long another instance may keep using rules a change replaced. */
export const CACHE_TTL_MS = 10_000;
const HISTORY_LIMIT = 100;

interface Entry {
  redactor: Redactor | null;
  loadedAt: number;
  loading?: Promise<Redactor | null>;
}
const cache = new Map<string, Entry>();

interface Actor {
  organizationId: string;
  userId: string | null;
}

/** Rules stored by an older build are read leniently: what no longer parses is left out rather than failing ingestion. */
function parseStored(rules: unknown): TRedactionRules {
  const parsed = ZRedactionRules.safeParse(rules);
  return parsed.success ? parsed.data : EMPTY_RULES;
}

const isEmpty = (r: TRedactionRules) => r.builtins.length === 0 && r.patterns.length === 0 && r.fields.length === 0;

/** The organization's compiled rules, or null when it has none (the common case, answered from the cache). */
export async function getRedactor(db: DbClient, organizationId: string): Promise<Redactor | null> {
  const entry = cache.get(organizationId);
  const now = Date.now();
  if (entry && now - entry.loadedAt < CACHE_TTL_MS) return entry.redactor;
  if (entry?.loading) return entry.loading;
  const loading = q.selectCurrentRules(db, organizationId).then((row) => {
    const rules = row ? parseStored(row.rules) : EMPTY_RULES;
    const redactor = row && !isEmpty(rules) ? new Redactor(row.version, rules) : null;
    cache.set(organizationId, { redactor, loadedAt: Date.now() });
    return redactor;
  });
  cache.set(organizationId, { redactor: entry?.redactor ?? null, loadedAt: entry?.loadedAt ?? 0, loading });
  try {
    return await loading;
  } catch (error) {
    cache.delete(organizationId);
    throw error;
  }
}

/** Forgets the cached rules of an organization (after a change, and in tests). */
export function invalidateRedactionCache(organizationId?: string): void {
  if (organizationId === undefined) cache.clear();
  else cache.delete(organizationId);
}

/**
 * Redacts a JSON value in place with the organization's rules (string values; objects and arrays are walked)
 * and returns the new value with what changed. For the writes that are not span ingestion: MCP tool
 * arguments, log records.
 */
export async function redactJson<T>(db: DbClient, organizationId: string, value: T, keep?: TKeep): Promise<{ value: T; counts: TRedactionCounts }> {
  const counts: TRedactionCounts = new Map();
  const redactor = await getRedactor(db, organizationId);
  if (!redactor) return { value, counts };
  return { value: redactor.value(value, counts, null, keep) as T, counts };
}

export async function getRedactionSettings(db: DbClient, organizationId: string): Promise<TRedactionSettings> {
  const rows = await q.selectRuleVersions(db, organizationId, HISTORY_LIMIT);
  const versions = rows.map((r) => ({
    version: r.version,
    rules: parseStored(r.rules),
    authorUserId: r.author_user_id,
    authorEmail: r.author_email,
    restoredFrom: r.restored_from,
    createdAt: r.created_at,
  }));
  return { version: versions[0]?.version ?? 0, rules: versions[0]?.rules ?? EMPTY_RULES, versions };
}

async function append(db: Database, auth: Actor, actor: TAuditActor, rules: TRedactionRules, restoredFrom: number | null): Promise<TRedactionSettings> {
  try {
    await db.transaction(async (tx) => {
      const current = await q.selectCurrentRules(tx, auth.organizationId);
      await q.insertRuleVersion(tx, auth.organizationId, { rules, authorUserId: auth.userId, restoredFrom, at: new Date() });
      await recordAuditEvents(tx, auth.organizationId, actor, [{
        kind: restoredFrom === null ? "redaction.changed" : "redaction.restored",
        targetType: "redaction_rules",
        targetId: auth.organizationId,
        before: current ? { version: current.version, rules: parseStored(current.rules) } : null,
        after: { version: (current?.version ?? 0) + 1, rules, ...(restoredFrom === null ? {} : { restoredFrom }) },
      }]);
    });
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      throw new AppError("conflict", "The redaction rules were changed at the same moment by someone else; reload them and try again.");
    }
    throw error;
  }
  invalidateRedactionCache(auth.organizationId);
  return getRedactionSettings(db, auth.organizationId);
}

/** Puts new rules in force as a new version; the previous versions stay, with who wrote them. */
export function saveRedactionRules(db: Database, auth: Actor, actor: TAuditActor, rules: TRedactionRules): Promise<TRedactionSettings> {
  return append(db, auth, actor, rules, null);
}

/** Puts an earlier version's rules back in force, as a new version naming the one it copied (an undo). */
export async function restoreRedactionRules(db: Database, auth: Actor, actor: TAuditActor, version: number): Promise<TRedactionSettings> {
  const rules = await q.selectRuleVersion(db, auth.organizationId, version);
  if (rules === null) throw notFound(`Redaction rules version ${version}`);
  return append(db, auth, actor, parseStored(rules), version);
}
