// Graders use cases (docs/api/graders.md): list by trace function; create, upsert by
// (traceFunctionKey, name), or edit by id (another organization's id is 404, like a missing one).
import type { Database } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { findGraderRows, findGraderRowsByIds, insertGraderRow, upsertGraderRow, updateGraderRow, type GraderRow } from "./graders.queries.ts";
import type { TGrader, TUpsertGraderBody } from "./graders.schemas.ts";

export function toGraderResponse(row: GraderRow): TGrader {
  return {
    id: row.id,
    traceFunctionKey: row.traceFunctionKey,
    name: row.name,
    kind: row.kind as TGrader["kind"],
    config: row.config as Record<string, unknown>,
    status: row.status as TGrader["status"],
    live: row.live,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

export async function findGraders(db: Database, organizationId: string, traceFunctionKey?: string): Promise<TGrader[]> {
  return (await findGraderRows(db, organizationId, traceFunctionKey)).map(toGraderResponse);
}

export async function upsertGrader(db: Database, organizationId: string, body: TUpsertGraderBody): Promise<{ grader: TGrader; created: boolean }> {
  const write = { traceFunctionKey: body.traceFunctionKey, name: body.name, kind: body.kind, config: body.config, status: body.status, live: body.live };
  try {
    if (body.id) {
      const row = await updateGraderRow(db, organizationId, body.id, write);
      if (!row) throw notFound("Grader");
      return { grader: toGraderResponse(row), created: false };
    }
    const { created, ...row } = await upsertGraderRow(db, organizationId, newId(), write);
    return { grader: toGraderResponse(row), created };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("conflict", `Another grader is already named "${body.name}" for trace function "${body.traceFunctionKey}".`);
    }
    throw error;
  }
}

/**
 * Creates a grader; an existing (traceFunctionKey, name) is a conflict, never overwritten (the console's "New
 * grader"; REST keeps its upsert by name, docs/api/graders.md).
 */
export async function createGrader(db: Database, organizationId: string, body: TUpsertGraderBody): Promise<TGrader> {
  const write = { traceFunctionKey: body.traceFunctionKey, name: body.name, kind: body.kind, config: body.config, status: body.status, live: body.live };
  const row = await insertGraderRow(db, organizationId, newId(), write);
  if (!row) throw new AppError("conflict", `A grader named "${body.name}" already exists for trace function "${body.traceFunctionKey}".`);
  return toGraderResponse(row);
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === "23505";
}

/** One grader of the organization; another organization's or an unknown id is a 404. */
export async function getGrader(db: Database, organizationId: string, id: string): Promise<TGrader> {
  const [row] = await findGraderRowsByIds(db, organizationId, [id.toLowerCase()]);
  if (!row) throw notFound("Grader");
  return toGraderResponse(row);
}
