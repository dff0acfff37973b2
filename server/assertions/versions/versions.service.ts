// Assertion versions (docs/api/assertions.md, "Versions"): every edit keeps what the assertion said before,
// with who replaced it, when and through what (the console, an agent over MCP, an API key). A person can
// restore any earlier version; the restore is an edit like any other, so it can be undone in turn.
import { recordAuditEvents } from "../../auth/audit/audit.service.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import type { Database, DbClient } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import * as q from "../assertions.queries.ts";
import { assertionAudit, reviewFields, toAssertionResponses } from "../assertions.service.ts";
import * as vq from "./versions.queries.ts";

type UserRef = { id: string; email: string | null; fullName: string | null };

async function activeRow(db: DbClient, organizationId: string, assertionId: string) {
  const [row] = await q.findAssertionRowsById(db, organizationId, [assertionId]);
  if (!row || row.archivedAt) throw notFound(`Assertion ${assertionId}`);
  return row;
}

/**
 * The assertion as it is now and every earlier version, newest first. Version n was written by whoever
 * replaced version n - 1 (the author for version 1), and replaced by the edit recorded with it.
 */
export async function findAssertionHistory(db: Database, organizationId: string, assertionId: string) {
  const row = await activeRow(db, organizationId, assertionId);
  const [current] = await toAssertionResponses(db, organizationId, [row]);
  const versions = await vq.findVersions(db, organizationId, assertionId);
  const userIds = [...new Set([row.authorUserId, ...versions.map((v) => v.replacedByUserId)].filter((id): id is string => !!id))];
  const users = new Map((userIds.length ? await q.findUsers(db, organizationId, userIds) : []).map((u) => [u.id, { id: u.id, email: u.email, fullName: u.name }]));
  const user = (id: string | null): UserRef | null => (id ? (users.get(id) ?? { id, email: null, fullName: null }) : null);
  // Ascending, so each version's writer is the previous one's replacer.
  const ascending = [...versions].reverse();
  const writer = (i: number) =>
    i === 0
      ? { writtenBy: user(row.authorUserId), writtenThrough: row.source === "human" ? "person" : "agent", writtenAt: row.createdAt.toISOString() }
      : { writtenBy: user(ascending[i - 1]!.replacedByUserId), writtenThrough: ascending[i - 1]!.replacedBy, writtenAt: ascending[i - 1]!.replacedAt.toISOString() };
  const history = ascending.map((v, i) => ({
    version: v.version,
    assertion: v.assertion,
    passCriteria: v.passCriteria,
    failCriteria: v.failCriteria,
    targetOnEvaluatedTrace: (v.targetOnEvaluatedTrace ?? null) as typeof current.targetOnEvaluatedTrace,
    check: (v.check ?? null) as typeof current.check,
    categoryAssertionId: v.categoryAssertionId,
    humanNote: v.humanNote,
    approvalState: v.approvalState as typeof current.approvalState,
    ...writer(i),
    replacedBy: user(v.replacedByUserId),
    replacedThrough: v.replacedBy,
    replacedAt: v.replacedAt.toISOString(),
  }));
  return { current: { ...current!, version: ascending.length + 1, ...writer(ascending.length) }, versions: history.reverse() };
}

/**
 * A person restores an earlier version: its statement, target, check, criteria, category, note and review
 * state come back, and what the assertion said until now is kept as the next version.
 */
export async function revertAssertion(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, input: { assertionId: string; version: number }) {
  const { organizationId } = auth;
  await db.transaction(async (tx) => {
    await vq.lockAssertionRows(tx, organizationId, [input.assertionId]);
    const row = await activeRow(tx, organizationId, input.assertionId);
    const v = await vq.findVersion(tx, organizationId, input.assertionId, input.version);
    if (!v) throw notFound(`Version ${input.version} of assertion ${input.assertionId}`);
    const now = new Date();
    await vq.insertVersion(tx, organizationId, row, { userId: auth.userId, writer: "person", at: now });
    const review = v.approvalState !== row.approvalState ? reviewFields(v.approvalState, auth.userId, now) : {};
    // A category deleted since leaves the restored assertion uncategorised, as deleting it did.
    const category = v.categoryAssertionId && (await q.findCategoryTitles(tx, organizationId, [v.categoryAssertionId])).length > 0 ? v.categoryAssertionId : null;
    const restored = {
      assertion: v.assertion,
      passCriteria: v.passCriteria,
      failCriteria: v.failCriteria,
      targetOnEvaluatedTrace: v.targetOnEvaluatedTrace ?? null,
      check: v.check ?? null,
      categoryAssertionId: category,
      humanNote: v.humanNote,
      ...review,
    };
    await q.updateActiveAssertion(tx, { organizationId, traceId: row.traceId, id: row.id }, restored);
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: "assertion.reverted", targetType: "assertion", targetId: row.id, before: assertionAudit(row), after: { ...assertionAudit({ ...row, ...restored }), revertedTo: input.version },
    }]);
  });
  const [response] = await toAssertionResponses(db, organizationId, await q.findAssertionRowsById(db, organizationId, [input.assertionId]));
  return response!;
}
