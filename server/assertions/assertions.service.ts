// Assertion use cases (docs/api/assertions.md).
// Exported for the replay and console features: findEffectiveAssertions, saveAssertions, archiveAssertions.
import { recordAuditEvents } from "../auth/audit/audit.service.ts";
import type { TAuditActor, TAuditChange } from "../auth/audit/audit.schemas.ts";
import type { DbClient } from "../db/client.ts";
import type { Database } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { isUuid, newId } from "../ids.ts";
import * as q from "./assertions.queries.ts";
import * as vq from "./versions/versions.queries.ts";
import type { AssertionFields, AssertionRow } from "./assertions.queries.ts";
import type { TApprovalState, TSaveAssertion, TSaveAssertionsBody, TTraceAssertion } from "./assertions.schemas.ts";

/** How far up the replay lineage (traces.original_trace_id) inheritance looks. */
const MAX_LINEAGE = 10;
/** A 1000-assertion batch is many statements; Prisma's 5 s interactive-transaction default is too short. */
const TX_OPTIONS = { timeout: 60_000, maxWait: 30_000 };

export interface EffectiveAssertions {
  assertions: AssertionRow[];
  /** The ancestor whose assertions these are, when the trace has none of its own; else null. */
  inheritedFrom: string | null;
}

/**
 * The active assertions that apply to a trace: its own, else (for a replay trace) its original's, up the
 * lineage (docs/api/assertions.md, GET …/assertions). Only approved ones unless `includeUnapproved`
 * (docs/api/assertions.md, "Review"): they are what replays judge and agents read. null when the trace is
 * not the organization's.
 */
export async function findEffectiveAssertions(
  db: DbClient,
  organizationId: string,
  traceId: string,
  options: { includeUnapproved?: boolean } = {},
): Promise<EffectiveAssertions | null> {
  if (!isUuid(traceId)) return null;
  let trace = await q.findTraceLineage(db, organizationId, traceId.toLowerCase());
  if (!trace) return null;
  const start = trace.id;
  for (let depth = 0; trace && depth < MAX_LINEAGE; depth++) {
    const assertions = await q.findActiveAssertionRows(db, organizationId, [trace.id], !options.includeUnapproved);
    if (assertions.length > 0) return { assertions, inheritedFrom: trace.id === start ? null : trace.id };
    trace = trace.originalTraceId ? await q.findTraceLineage(db, organizationId, trace.originalTraceId) : null;
  }
  return { assertions: [], inheritedFrom: null };
}

/**
 * The trace and its replay ancestors (traces.original_trace_id), nearest first; [] when the trace is not
 * the organization's. An assertion of any of them applies to the trace (labels validate against this).
 */
export async function findTraceLineageIds(db: DbClient, organizationId: string, traceId: string): Promise<string[]> {
  const ids: string[] = [];
  let trace = isUuid(traceId) ? await q.findTraceLineage(db, organizationId, traceId.toLowerCase()) : null;
  while (trace && ids.length < MAX_LINEAGE && !ids.includes(trace.id)) {
    ids.push(trace.id);
    trace = trace.originalTraceId ? await q.findTraceLineage(db, organizationId, trace.originalTraceId) : null;
  }
  return ids;
}

/** GET /api/sdk/traces/{traceId}/assertions: a trace of another organization is a 404. */
/** What an agent reads before judging a trace: the approved assertions that apply, where they come from, and how many await review. */
export interface TTraceAssertionsView {
  traceId: string;
  assertions: TTraceAssertion[];
  /** The original whose assertions these are, when the trace has none of its own; else null. */
  inheritedFrom: string | null;
  /** Assertions awaiting review at the level the trace reads (its own, else its original's). */
  pending: number;
}

/** get_trace_assertions (docs/mcp.md): a view per trace of the organization, in the given order; the other ids come back in unresolvedTraceIds. */
export async function findTraceAssertionViews(db: DbClient, organizationId: string, traceIds: string[]) {
  const traces: TTraceAssertionsView[] = [];
  const unresolvedTraceIds: string[] = [];
  for (const traceId of traceIds) {
    const found = await findEffectiveAssertions(db, organizationId, traceId);
    if (!found) {
      unresolvedTraceIds.push(traceId);
      continue;
    }
    const withDrafts = await findEffectiveAssertions(db, organizationId, traceId, { includeUnapproved: true });
    const pending = (withDrafts?.assertions ?? []).filter((a) => a.approvalState === "pending").length;
    traces.push({ traceId, assertions: await toAssertionResponses(db, organizationId, found.assertions), inheritedFrom: found.inheritedFrom, pending });
  }
  return { traces, unresolvedTraceIds };
}

export async function getTraceAssertions(db: Database, organizationId: string, traceId: string, options: { includeUnapproved?: boolean } = {}) {
  const found = await findEffectiveAssertions(db, organizationId, traceId, options);
  if (!found) throw notFound("Trace");
  return { assertions: await toAssertionResponses(db, organizationId, found.assertions), inheritedFrom: found.inheritedFrom };
}

/**
 * Who writes decides the review state of what is written (docs/api/assertions.md, "Review"): an agent's new
 * assertion awaits review, a person's is approved; REST callers that send no review field keep the older
 * behaviour (approved), those that send one are treated as agents.
 */
export type AssertionWriter = "agent" | "person" | "rest";

/**
 * Fields whose change sends an assertion back to review unless the same write sets its state: what is judged
 * (the check included: it is what a replay actually runs).
 */
const REVIEWED_FIELDS = ["assertion", "targetOnEvaluatedTrace", "check", "passCriteria", "failCriteria", "categoryAssertionId"] as const;

const differs = (fields: AssertionFields, before: AssertionRow, f: keyof AssertionFields & keyof AssertionRow) =>
  fields[f] !== undefined && JSON.stringify(fields[f]) !== JSON.stringify(before[f] ?? null);

/**
 * Creates and edits assertions across traces in one transaction: a foreign or unknown trace is a 404, an
 * id that is not an active assertion of its entry's trace, an unknown category or an assignee who is not a
 * member is a 400, and any of them writes nothing. New rows take the batch's source and the key's user as
 * author; edits keep both (docs/api/assertions.md).
 */
export async function saveAssertions(
  db: Database,
  auth: { organizationId: string; userId: string },
  actor: TAuditActor,
  body: TSaveAssertionsBody,
  writer: AssertionWriter = "rest",
  options: { originalsOnly?: boolean } = {},
) {
  const { organizationId } = auth;
  const entries = body.updates.flatMap((u) => u.assertions);
  const reviewing = writer === "agent" || (writer === "rest" && entries.some((e) => e.approvalState !== undefined || e.assigneeEmail !== undefined));
  const ids = await db.transaction(async (tx) => {
    if (options.originalsOnly) await checkOriginals(tx, organizationId, body.updates.map((u) => u.traceId));
    else {
      const known = await q.findExistingTraceIds(tx, organizationId, body.updates.map((u) => u.traceId));
      const missing = body.updates.find((u) => !known.has(u.traceId));
      if (missing) throw notFound(`Trace ${missing.traceId}`);
    }
    await checkCategories(tx, organizationId, entries);
    const assignees = await resolveAssignees(tx, organizationId, entries);
    const editedIds = entries.flatMap((e) => (e.id ? [e.id] : []));
    await vq.lockAssertionRows(tx, organizationId, editedIds);
    const stored = new Map((await q.findAssertionRowsById(tx, organizationId, editedIds)).map((r) => [r.id, r]));
    const saved: string[] = [];
    const audit: TAuditChange[] = [];
    const created: Parameters<typeof q.insertAssertions>[1] = [];
    const now = new Date();
    for (const { traceId, assertions } of body.updates) {
      for (const entry of assertions) {
        const fields = { ...toFields(entry), ...assigneeField(entry, assignees) };
        if (entry.id) {
          const before = stored.get(entry.id);
          if (!before || before.traceId !== traceId || before.archivedAt) throw notActiveOn(entry.id, traceId);
          const changed = REVIEWED_FIELDS.some((f) => differs(fields, before, f));
          // What it said before is kept, with who replaced it (docs/api/assertions.md, "Versions").
          if (vq.VERSIONED_FIELDS.some((f) => differs(fields, before, f))) await vq.insertVersion(tx, organizationId, before, { userId: auth.userId, writer, at: now });
          const state = entry.approvalState ?? (changed ? (reviewing ? "pending" : "approved") : undefined);
          const review = state && state !== before.approvalState || entry.approvalState ? reviewFields(state!, auth.userId, now) : {};
          const count = await q.updateActiveAssertion(tx, { organizationId, traceId, id: entry.id }, { ...fields, ...review });
          if (count === 0) throw notActiveOn(entry.id, traceId);
          saved.push(entry.id);
          const after = { ...assertionAudit(before), ...assertionAudit({ ...before, ...definedOf(fields), ...review }) };
          if (JSON.stringify(after) !== JSON.stringify(assertionAudit(before))) {
            audit.push({ kind: "assertion.updated", targetType: "assertion", targetId: entry.id, before: assertionAudit(before), after });
          }
        } else {
          if (writer === "agent" && entry.approvalState !== undefined) {
            throw new AppError("bad_request", "approvalState is refused on a new assertion: new assertions await review; nothing was written.");
          }
          const state = entry.approvalState ?? (reviewing ? "pending" : "approved");
          const id = newId();
          const row = { ...fields, ...reviewFields(state, auth.userId, now), id, organizationId, traceId, assertion: entry.assertion!, source: body.source, authorUserId: auth.userId };
          created.push(row);
          saved.push(id);
          audit.push({ kind: "assertion.created", targetType: "assertion", targetId: id, before: null, after: { traceId, ...assertionAudit(row) } });
        }
      }
    }
    if (created.length > 0) await q.insertAssertions(tx, created);
    await recordAuditEvents(tx, organizationId, actor, audit);
    return saved;
  }, TX_OPTIONS);
  const rows = await q.findAssertionRowsById(db, organizationId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { assertions: await toAssertionResponses(db, organizationId, ids.map((id) => byId.get(id)!)) };
}

/**
 * originalsOnly (the agents' save_trace_assertions, docs/mcp.md): assertions belong on original traces, so a
 * replay trace is refused, naming its original, as is a trace outside the organization.
 */
async function checkOriginals(db: DbClient, organizationId: string, traceIds: string[]) {
  for (const traceId of traceIds) {
    const lineage = await findTraceLineageIds(db, organizationId, traceId);
    if (lineage.length === 0) throw new AppError("not_found", `Trace ${traceId} not found in this organization; nothing was written.`);
    if (lineage.length > 1) {
      throw new AppError("bad_request", `Trace ${traceId} is a replay; save assertions on its original trace ${lineage.at(-1)} instead. Nothing was written.`);
    }
  }
}

/** What the audit log keeps of an assertion: what is judged, its note and its review state. */
export function assertionAudit(r: AssertionFields) {
  return {
    assertion: r.assertion ?? null,
    passCriteria: r.passCriteria ?? null,
    failCriteria: r.failCriteria ?? null,
    targetOnEvaluatedTrace: r.targetOnEvaluatedTrace ?? null,
    check: r.check ?? null,
    categoryAssertionId: r.categoryAssertionId ?? null,
    humanNote: r.humanNote ?? null,
    approvalState: r.approvalState ?? null,
    assigneeUserId: r.assigneeUserId ?? null,
  };
}

const definedOf = (fields: AssertionFields): AssertionFields =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as AssertionFields;

/** Approved and rejected record who decided and when; pending clears both. */
export function reviewFields(state: string, userId: string, at: Date) {
  return state === "pending"
    ? { approvalState: state, approvedByUserId: null, approvedAt: null }
    : { approvalState: state, approvedByUserId: userId, approvedAt: at };
}

async function checkCategories(db: DbClient, organizationId: string, entries: TSaveAssertion[]) {
  const wanted = [...new Set(entries.flatMap((e) => (e.category_assertion_id ? [e.category_assertion_id] : [])))];
  if (wanted.length === 0) return;
  const found = new Set((await q.findCategoryTitles(db, organizationId, wanted)).map((c) => c.id));
  const unknown = wanted.find((id) => !found.has(id));
  if (unknown) throw new AppError("bad_request", `category_assertion_id ${unknown} is not an assertion category of this organization; nothing was written.`);
}

async function resolveAssignees(db: DbClient, organizationId: string, entries: TSaveAssertion[]) {
  const emails = [...new Set(entries.flatMap((e) => (e.assigneeEmail ? [e.assigneeEmail.toLowerCase()] : [])))];
  const byEmail = new Map<string, string>();
  for (const email of emails) {
    const user = await q.findUserByEmail(db, organizationId, email);
    if (!user) throw new AppError("bad_request", `assigneeEmail ${email} is not a member of this organization (list_organization_members lists them); nothing was written.`);
    byEmail.set(email, user.id);
  }
  return byEmail;
}

function assigneeField(e: TSaveAssertion, byEmail: Map<string, string>): { assigneeUserId?: string | null } {
  if (e.assigneeEmail === undefined) return {};
  return { assigneeUserId: e.assigneeEmail === null || e.assigneeEmail === "" ? null : byEmail.get(e.assigneeEmail.toLowerCase())! };
}

/**
 * Approves or rejects active assertions of the organization (the console's review queue); an optional
 * note is kept as the human note. Unknown, archived or foreign ids are a 404 and nothing changes.
 */
export async function reviewAssertions(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, input: { ids: string[]; approvalState: TApprovalState; humanNote?: string | null }) {
  const ids = [...new Set(input.ids)];
  return db.transaction(async (tx) => {
    await vq.lockAssertionRows(tx, auth.organizationId, ids);
    const rows = await q.findAssertionRowsById(tx, auth.organizationId, ids);
    const active = new Set(rows.filter((r) => !r.archivedAt).map((r) => r.id));
    const missing = ids.find((id) => !active.has(id));
    if (missing) throw notFound(`Assertion ${missing}`);
    // A decision's note replaces the note written before it: that one is kept as a version.
    const now = new Date();
    for (const r of rows) {
      if (input.humanNote !== undefined && (input.humanNote ?? null) !== r.humanNote) await vq.insertVersion(tx, auth.organizationId, r, { userId: auth.userId, writer: "person", at: now });
    }
    const change = { ...reviewFields(input.approvalState, auth.userId, now), ...(input.humanNote !== undefined ? { humanNote: input.humanNote } : {}) };
    await q.updateApprovalState(tx, auth.organizationId, ids, change);
    await recordAuditEvents(tx, auth.organizationId, actor, rows.map((r) => ({
      kind: `assertion.${input.approvalState === "pending" ? "reopened" : input.approvalState}`,
      targetType: "assertion",
      targetId: r.id,
      before: { approvalState: r.approvalState, humanNote: r.humanNote },
      after: { approvalState: input.approvalState, humanNote: input.humanNote !== undefined ? input.humanNote : r.humanNote },
    })));
    return { reviewed: ids, approvalState: input.approvalState };
  });
}

/**
 * Archives assertions of one trace (docs/api/assertions.md, "POST /api/sdk/traces/{traceId}/assertions/archive"):
 * hidden from every read, kept in the table. Already-archived ids of this trace are reported again (idempotent); an
 * id that is not an assertion of this trace is a 400 and nothing is archived.
 */
export async function archiveAssertions(
  db: Database,
  organizationId: string,
  actor: TAuditActor,
  traceId: string,
  assertionIds: string[],
  options: { activeOnly?: boolean } = {},
) {
  if (!isUuid(traceId) || !(await q.findTraceLineage(db, organizationId, traceId.toLowerCase()))) throw notFound("Trace");
  const trace = traceId.toLowerCase();
  const ids = [...new Set(assertionIds)];
  await db.transaction(async (tx) => {
    const rows = await q.findAssertionRowsById(tx, organizationId, ids);
    // activeOnly (the agents' archive_trace_assertions, docs/mcp.md): an already archived id is refused too.
    const ofTrace = new Set(rows.filter((r) => r.traceId === trace && !(options.activeOnly && r.archivedAt)).map((r) => r.id));
    const stranger = ids.find((id) => !ofTrace.has(id));
    const what = options.activeOnly ? "an active assertion" : "an assertion";
    if (stranger) throw new AppError("bad_request", `Assertion ${stranger} is not ${what} of trace ${trace}; nothing was archived.`);
    await q.archiveAssertionRows(tx, organizationId, trace, ids, new Date());
    await recordAuditEvents(tx, organizationId, actor, rows.filter((r) => !r.archivedAt).map((r) => ({
      kind: "assertion.archived", targetType: "assertion", targetId: r.id, before: { traceId: trace, ...assertionAudit(r) }, after: null,
    })));
  });
  return { archived: ids };
}

function notActiveOn(id: string, traceId: string) {
  return new AppError("bad_request", `Assertion ${id} is not an active assertion of trace ${traceId}; nothing was written.`);
}

function toFields(e: TSaveAssertion): AssertionFields {
  return {
    assertion: e.assertion,
    passCriteria: e.passCriteria,
    failCriteria: e.failCriteria,
    targetOnEvaluatedTrace: e.targetOnEvaluatedTrace,
    check: e.check,
    categoryAssertionId: e.category_assertion_id,
    justification: e.justification,
    categoryJustification: e.categoryJustification,
    humanNote: e.humanNote,
  };
}

export async function toAssertionResponses(db: DbClient, organizationId: string, rows: AssertionRow[]): Promise<TTraceAssertion[]> {
  const userIds = [...new Set(rows.flatMap((r) => [r.authorUserId, r.approvedByUserId, r.assigneeUserId]).filter((id): id is string => !!id))];
  const categoryIds = [...new Set(rows.flatMap((r) => (r.categoryAssertionId ? [r.categoryAssertionId] : [])))];
  const categories = new Map((categoryIds.length ? await q.findCategoryTitles(db, organizationId, categoryIds) : []).map((c) => [c.id, c]));
  const users = new Map((userIds.length ? await q.findUsers(db, organizationId, userIds) : []).map((u) => [u.id, { id: u.id, email: u.email, fullName: u.name }]));
  const user = (id: string | null) => (id ? (users.get(id) ?? { id, email: null, fullName: null }) : null);
  return rows.map((r) => ({
    id: r.id,
    traceId: r.traceId,
    assertion: r.assertion,
    passCriteria: r.passCriteria,
    failCriteria: r.failCriteria,
    targetOnEvaluatedTrace: (r.targetOnEvaluatedTrace ?? null) as TTraceAssertion["targetOnEvaluatedTrace"],
    check: (r.check ?? null) as TTraceAssertion["check"],
    source: r.source as TTraceAssertion["source"],
    author: user(r.authorUserId),
    humanNote: r.humanNote,
    category_assertion_id: r.categoryAssertionId,
    justification: (r.justification ?? null) as TTraceAssertion["justification"],
    categoryJustification: r.categoryJustification,
    approvalState: r.approvalState as TTraceAssertion["approvalState"],
    assigneeEmail: r.assigneeUserId ? (user(r.assigneeUserId)?.email ?? null) : null,
    category: r.categoryAssertionId ? (categories.get(r.categoryAssertionId) ?? null) : null,
    approvedBy: user(r.approvedByUserId),
    approvedAt: r.approvedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}
