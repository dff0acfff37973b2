// Graders use cases (docs/api/graders.md, docs/graders.md "History"): list by trace function; create (an existing
// (traceFunctionKey, name) is a conflict naming the existing grader, never overwritten); edit by id, which
// writes a new version saying who changed what and through what; revert, which writes a new version equal to an
// old one (so a revert is itself undoable). Another organization's id is a 404, like a missing one.
import type { Database, DbClient } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { changedFields, describeChanges } from "./grader-changes.ts";
import * as q from "./graders.queries.ts";
import type { GraderDefinition, GraderRow } from "./graders.queries.ts";
import type { TGrader, TGraderAuthor, TGraderVersion, TSaveGraderBody, TSaveGraderResponse } from "./graders.schemas.ts";
import { recordAuditEvents } from "../auth/audit/audit.service.ts";

/** Who writes a grader: a user through the console, a REST key, or an agent's MCP tool (named). */
export interface TGraderActor {
  userId: string | null;
  via: "console" | "rest" | "mcp";
  tool?: string;
  /** The key a REST or MCP change came with (the audit log records it). */
  apiKeyId?: string;
}

export function toGraderResponse(row: GraderRow): TGrader {
  return {
    id: row.id,
    traceFunctionKey: row.traceFunctionKey,
    name: row.name,
    kind: row.kind as TGrader["kind"],
    config: row.config as Record<string, unknown>,
    status: row.status as TGrader["status"],
    live: row.live,
    version: row.version,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

const definitionOf = (g: GraderDefinition): GraderDefinition =>
  ({ traceFunctionKey: g.traceFunctionKey, name: g.name, kind: g.kind, config: g.config, status: g.status, live: g.live });

export async function findGraders(db: Database, organizationId: string, traceFunctionKey?: string): Promise<TGrader[]> {
  return (await q.findGraderRows(db, organizationId, traceFunctionKey)).map(toGraderResponse);
}

/**
 * A page of a trace function's graders (active ones unless includeArchived), those whose name contains
 * searchQuery (any case); the cursor is the offset the previous page named (list_graders, docs/mcp.md).
 */
export async function findGradersPage(
  db: Database,
  organizationId: string,
  query: { traceFunctionKey: string; includeArchived: boolean; searchQuery?: string; limit: number; cursor?: string },
): Promise<{ graders: TGrader[]; total: number; nextCursor: string | null }> {
  const offset = query.cursor === undefined ? 0 : Number.parseInt(query.cursor, 10);
  if (!Number.isInteger(offset) || offset < 0) throw new AppError("bad_request", "cursor is not a cursor returned by list_graders.");
  const needle = query.searchQuery?.toLowerCase();
  const all = (await findGraders(db, organizationId, query.traceFunctionKey))
    .filter((g) => query.includeArchived || g.status === "active")
    .filter((g) => !needle || g.name.toLowerCase().includes(needle));
  const nextCursor = offset + query.limit < all.length ? String(offset + query.limit) : null;
  return { graders: all.slice(offset, offset + query.limit), total: all.length, nextCursor };
}

/** One grader of the organization; another organization's or an unknown id is a 404. */
export async function getGrader(db: Database, organizationId: string, id: string): Promise<TGrader> {
  const [row] = await q.findGraderRowsByIds(db, organizationId, [id.toLowerCase()]);
  if (!row) throw notFound("Grader");
  return toGraderResponse(row);
}

/** Creates with `id` absent, edits the grader `id` otherwise. */
export function saveGrader(db: Database, organizationId: string, actor: TGraderActor, body: TSaveGraderBody): Promise<TSaveGraderResponse> {
  return body.id ? updateGrader(db, organizationId, actor, body.id, body) : createGrader(db, organizationId, actor, body);
}

/** Creates a grader at version 1. An existing (traceFunctionKey, name) is a 409 carrying `existingId`; nothing is written. */
export async function createGrader(db: Database, organizationId: string, actor: TGraderActor, body: Omit<TSaveGraderBody, "id">): Promise<TSaveGraderResponse> {
  const def = { traceFunctionKey: body.traceFunctionKey, name: body.name, kind: body.kind, config: body.config, status: body.status ?? "active", live: body.live ?? true };
  return db.transaction(async (tx) => {
    const row = await q.insertGraderRow(tx, organizationId, newId(), def);
    if (!row) {
      const existing = await q.findGraderIdByName(tx, organizationId, def.traceFunctionKey, def.name);
      throw new AppError("conflict", `A grader named "${def.name}" already exists for trace function "${def.traceFunctionKey}" (id ${existing?.id}); nothing was written.`,
        { fields: existing ? { existingId: existing.id } : {} });
    }
    await writeVersion(tx, organizationId, row.id, actor, { ...def, version: 1, summary: "Created", revertedFrom: null });
    await recordAuditEvents(tx, organizationId, actor, [{ kind: "grader.created", targetType: "grader", targetId: row.id, before: null, after: { ...def, version: 1 } }]);
    return { grader: toGraderResponse(row), created: true, changed: true, previousVersion: null };
  });
}

/**
 * Edits a grader as a new version (omitted status and live keep the stored values). An edit equal to the current
 * version writes nothing (`changed: false`); renaming onto another grader's name is a 409.
 */
export async function updateGrader(db: Database, organizationId: string, actor: TGraderActor, id: string, body: Omit<TSaveGraderBody, "id">): Promise<TSaveGraderResponse> {
  return onRename(body.name, body.traceFunctionKey, () => db.transaction(async (tx) => {
    const current = await q.lockGraderRow(tx, organizationId, id.toLowerCase());
    if (!current) throw notFound("Grader");
    const def = { traceFunctionKey: body.traceFunctionKey, name: body.name, kind: body.kind, config: body.config, status: body.status ?? current.status, live: body.live ?? current.live };
    return writeNext(tx, organizationId, actor, current, def, null);
  }));
}

/** Makes a new version equal to version `version` (so the revert itself is one more version, undoable the same way). */
export async function revertGrader(db: Database, organizationId: string, actor: TGraderActor, id: string, version: number): Promise<TSaveGraderResponse> {
  const graderId = id.toLowerCase();
  const target = await q.findGraderVersionRow(db, organizationId, graderId, version);
  if (!target) throw notFound(`Version ${version} of grader ${id}`);
  return onRename(target.name, target.traceFunctionKey, () => db.transaction(async (tx) => {
    const current = await q.lockGraderRow(tx, organizationId, graderId);
    if (!current) throw notFound("Grader");
    return writeNext(tx, organizationId, actor, current, definitionOf(target), version);
  }));
}

async function writeNext(tx: DbClient, organizationId: string, actor: TGraderActor, current: GraderRow, def: GraderDefinition, revertedFrom: number | null): Promise<TSaveGraderResponse> {
  const summary = describeChanges(definitionOf(current), def);
  if (summary === "No change") return { grader: toGraderResponse(current), created: false, changed: false, previousVersion: current.version };
  const version = current.version + 1;
  const row = await q.updateGraderRow(tx, organizationId, current.id, def, version);
  await writeVersion(tx, organizationId, current.id, actor, { ...def, version, summary: revertedFrom ? `Reverted to version ${revertedFrom}: ${summary}` : summary, revertedFrom });
  await recordAuditEvents(tx, organizationId, actor, [{
    kind: revertedFrom ? "grader.reverted" : "grader.updated",
    targetType: "grader",
    targetId: current.id,
    before: { ...definitionOf(current), version: current.version },
    after: { ...def, version },
  }]);
  return { grader: toGraderResponse(row), created: false, changed: true, previousVersion: current.version };
}

function writeVersion(tx: DbClient, organizationId: string, graderId: string, actor: TGraderActor, v: GraderDefinition & { version: number; summary: string; revertedFrom: number | null }) {
  return q.insertGraderVersion(tx, organizationId, graderId, {
    ...v, authorUserId: actor.userId, authorVia: actor.via, authorTool: actor.via === "mcp" ? (actor.tool ?? null) : null,
  });
}

async function onRename<T>(name: string, traceFunctionKey: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string })?.code === "23505") {
      throw new AppError("conflict", `Another grader is already named "${name}" for trace function "${traceFunctionKey}"; nothing was written.`);
    }
    throw error;
  }
}

/** Every version of a grader, newest first (404 for another organization's or an unknown grader). */
export async function findGraderVersions(db: Database, organizationId: string, id: string): Promise<{ graderId: string; versions: TGraderVersion[] }> {
  const grader = await getGrader(db, organizationId, id);
  const rows = await q.findGraderVersionRows(db, organizationId, grader.id);
  return {
    graderId: grader.id,
    versions: rows.map((r, i) => ({
      version: r.version,
      definition: { ...definitionOf(r), kind: r.kind as TGrader["kind"], status: r.status as TGrader["status"], config: r.config as Record<string, unknown> },
      author: { userId: r.authorUserId, name: r.author ? (r.author.name || r.author.email) : null, via: r.authorVia as TGraderAuthor["via"], tool: r.authorTool },
      summary: r.summary,
      // rows are newest first: the version before this one is the next row.
      changes: rows[i + 1] ? changedFields(definitionOf(rows[i + 1]), definitionOf(r)).map((c) => ({ path: c.path, before: c.before ?? null, after: c.after ?? null })) : [],
      revertedFrom: r.revertedFrom,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}
