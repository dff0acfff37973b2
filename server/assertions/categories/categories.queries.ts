// The only database access of assertion categories. Every query filters by organization.
import type { DbClient } from "../../db/client.ts";

const categorySelect = { id: true, title: true, description: true, createdAt: true, updatedAt: true } as const;

export function findCategories(db: DbClient, organizationId: string) {
  return db.prisma.assertionCategory.findMany({ where: { organizationId }, select: categorySelect, orderBy: [{ title: "asc" }, { id: "asc" }] });
}

export function findCategory(db: DbClient, organizationId: string, id: string) {
  return db.prisma.assertionCategory.findFirst({ where: { organizationId, id }, select: categorySelect });
}

export async function countCategoryAssertions(db: DbClient, organizationId: string, ids: string[]) {
  const rows = await db.prisma.assertion.groupBy({
    by: ["categoryAssertionId"],
    where: { organizationId, categoryAssertionId: { in: ids }, archivedAt: null },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.categoryAssertionId!, r._count._all]));
}

export function insertCategory(db: DbClient, row: { id: string; organizationId: string; title: string; description: string | null }) {
  return db.prisma.assertionCategory.create({ data: row, select: { id: true } });
}

export async function updateCategory(db: DbClient, organizationId: string, id: string, data: { title: string; description?: string | null }) {
  const res = await db.prisma.assertionCategory.updateMany({ where: { organizationId, id }, data: { ...data, updatedAt: new Date() } });
  return res.count;
}

/** Deletes the category and uncategorises its assertions (archived ones too); returns how many were. */
export async function deleteCategory(db: DbClient, organizationId: string, id: string) {
  const cleared = await db.prisma.assertion.updateMany({ where: { organizationId, categoryAssertionId: id }, data: { categoryAssertionId: null } });
  const deleted = await db.prisma.assertionCategory.deleteMany({ where: { organizationId, id } });
  return { deleted: deleted.count, uncategorized: cleared.count };
}
