// Assertion categories (docs/api/assertions.md, "Categories"): organization-wide, each with a title and an
// optional description; deleting one leaves its assertions uncategorised.
import type { Database } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import { isUuid, newId } from "../../ids.ts";
import type { TAssertionCategory, TSaveCategoryBody } from "./categories.schemas.ts";
import * as q from "./categories.queries.ts";

type Row = NonNullable<Awaited<ReturnType<typeof q.findCategory>>>;

async function toResponses(db: Database, organizationId: string, rows: Row[]): Promise<TAssertionCategory[]> {
  const counts = rows.length ? await q.countCategoryAssertions(db, organizationId, rows.map((r) => r.id)) : new Map<string, number>();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    assertionCount: counts.get(r.id) ?? 0,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function findAssertionCategories(db: Database, organizationId: string) {
  return { categories: await toResponses(db, organizationId, await q.findCategories(db, organizationId)) };
}

export async function getAssertionCategory(db: Database, organizationId: string, id: string) {
  const row = isUuid(id) ? await q.findCategory(db, organizationId, id.toLowerCase()) : null;
  if (!row) throw notFound(`Assertion category ${id}`);
  return { category: (await toResponses(db, organizationId, [row]))[0]! };
}

/** Creates (no id) or edits (id; another organization's is a 404) a category. */
export async function saveAssertionCategory(db: Database, organizationId: string, body: TSaveCategoryBody) {
  const description = body.description === undefined ? undefined : body.description === "" ? null : body.description;
  if (body.id) {
    if ((await q.updateCategory(db, organizationId, body.id, { title: body.title.trim(), description })) === 0) throw notFound(`Assertion category ${body.id}`);
    return { ...(await getAssertionCategory(db, organizationId, body.id)), created: false };
  }
  const id = newId();
  await q.insertCategory(db, { id, organizationId, title: body.title.trim(), description: description ?? null });
  return { ...(await getAssertionCategory(db, organizationId, id)), created: true };
}

export async function deleteAssertionCategory(db: Database, organizationId: string, id: string) {
  const { category } = await getAssertionCategory(db, organizationId, id);
  const result = await db.transaction((tx) => q.deleteCategory(tx, organizationId, category.id));
  return { deleted: category.id, uncategorized: result.uncategorized };
}
