// The only database access of assertion versions: what an assertion said before each edit, numbered per
// assertion. Every query filters by organization.
import type { DbClient } from "../../db/client.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sql, uuidArray } from "../../db/sql.ts";
import type { AssertionRow } from "../assertions.queries.ts";

/** The fields a version keeps: what is judged and said, not who it is assigned to or its evidence. */
export const VERSIONED_FIELDS = ["assertion", "passCriteria", "failCriteria", "targetOnEvaluatedTrace", "check", "categoryAssertionId", "humanNote"] as const;

export const versionSelect = {
  version: true,
  assertion: true,
  passCriteria: true,
  failCriteria: true,
  targetOnEvaluatedTrace: true,
  check: true,
  categoryAssertionId: true,
  humanNote: true,
  approvalState: true,
  replacedByUserId: true,
  replacedBy: true,
  replacedAt: true,
} as const;
export type VersionRow = Prisma.AssertionVersionGetPayload<{ select: typeof versionSelect }>;

/**
 * Locks the assertions about to be edited (one organization's rows), so two edits of one assertion number
 * their versions one after the other.
 */
export async function lockAssertionRows(db: DbClient, organizationId: string, ids: string[]) {
  if (ids.length === 0) return;
  await db.sql.query(sql`SELECT id FROM assertions WHERE organization_id = ${organizationId}::uuid AND id = ANY(${uuidArray(ids)}) ORDER BY id FOR UPDATE`);
}

/** Keeps `before` as the next version of its assertion, replaced now by `by` through `writer`. */
export async function insertVersion(db: DbClient, organizationId: string, before: AssertionRow, by: { userId: string | null; writer: string; at: Date }) {
  const json = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue));
  const last = await db.prisma.assertionVersion.aggregate({ where: { organizationId, assertionId: before.id }, _max: { version: true } });
  await db.prisma.assertionVersion.create({
    data: {
      organizationId,
      assertionId: before.id,
      version: (last._max.version ?? 0) + 1,
      assertion: before.assertion,
      passCriteria: before.passCriteria,
      failCriteria: before.failCriteria,
      targetOnEvaluatedTrace: json(before.targetOnEvaluatedTrace),
      check: json(before.check),
      categoryAssertionId: before.categoryAssertionId,
      humanNote: before.humanNote,
      approvalState: before.approvalState,
      replacedByUserId: by.userId,
      replacedBy: by.writer,
      replacedAt: by.at,
    },
  });
}

export function findVersions(db: DbClient, organizationId: string, assertionId: string): Promise<VersionRow[]> {
  return db.prisma.assertionVersion.findMany({ where: { organizationId, assertionId }, select: versionSelect, orderBy: { version: "desc" } });
}

export function findVersion(db: DbClient, organizationId: string, assertionId: string, version: number): Promise<VersionRow | null> {
  return db.prisma.assertionVersion.findUnique({ where: { organizationId_assertionId_version: { organizationId, assertionId, version } }, select: versionSelect });
}
