// Assertion use cases (http-interface.md "Assertion", "Assertions"; decisions.md "Assertions (decisions)").
// Exported for the replay and console features: findEffectiveAssertions, saveAssertions, archiveAssertions.
import type { DbClient } from "../db/client.ts";
import type { Database } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { isUuid, newId } from "../ids.ts";
import * as q from "./assertions.queries.ts";
import type { AssertionFields, AssertionRow } from "./assertions.queries.ts";
import type { TSaveAssertion, TSaveAssertionsBody, TTraceAssertion } from "./assertions.schemas.ts";

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
 * lineage (http-interface.md, GET …/assertions). null when the trace is not the organization's.
 */
export async function findEffectiveAssertions(db: DbClient, organizationId: string, traceId: string): Promise<EffectiveAssertions | null> {
  if (!isUuid(traceId)) return null;
  let trace = await q.findTraceLineage(db, organizationId, traceId.toLowerCase());
  if (!trace) return null;
  const start = trace.id;
  for (let depth = 0; trace && depth < MAX_LINEAGE; depth++) {
    const assertions = await q.findActiveAssertionRows(db, organizationId, [trace.id]);
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
export async function getTraceAssertions(db: Database, organizationId: string, traceId: string) {
  const found = await findEffectiveAssertions(db, organizationId, traceId);
  if (!found) throw notFound("Trace");
  return { assertions: await toAssertionResponses(db, organizationId, found.assertions), inheritedFrom: found.inheritedFrom };
}

/**
 * Creates and edits assertions across traces in one transaction: a foreign or unknown trace is a 404, an
 * id that is not an active assertion of its entry's trace is a 400, and either writes nothing. New rows
 * take the batch's source and the key's user as author; edits keep both (http-interface.md, Assertion).
 */
export async function saveAssertions(db: Database, auth: { organizationId: string; userId: string }, body: TSaveAssertionsBody) {
  const { organizationId } = auth;
  const ids = await db.transaction(async (tx) => {
    const known = await q.findExistingTraceIds(tx, organizationId, body.updates.map((u) => u.traceId));
    const missing = body.updates.find((u) => !known.has(u.traceId));
    if (missing) throw notFound(`Trace ${missing.traceId}`);
    const saved: string[] = [];
    const created: Parameters<typeof q.insertAssertions>[1] = [];
    for (const { traceId, assertions } of body.updates) {
      for (const entry of assertions) {
        if (entry.id) {
          const count = await q.updateActiveAssertion(tx, { organizationId, traceId, id: entry.id }, toFields(entry));
          if (count === 0) throw notActiveOn(entry.id, traceId);
          saved.push(entry.id);
        } else {
          const id = newId();
          created.push({ ...toFields(entry), id, organizationId, traceId, assertion: entry.assertion!, source: body.source, authorUserId: auth.userId });
          saved.push(id);
        }
      }
    }
    if (created.length > 0) await q.insertAssertions(tx, created);
    return saved;
  }, TX_OPTIONS);
  const rows = await q.findAssertionRowsById(db, organizationId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { assertions: await toAssertionResponses(db, organizationId, ids.map((id) => byId.get(id)!)) };
}

/**
 * Archives assertions of one trace (http-interface.md, Assertion states): hidden from every read, kept in
 * the table. Already-archived ids of this trace are reported again (idempotent); an id that is not an
 * assertion of this trace is a 400 and nothing is archived.
 */
export async function archiveAssertions(db: Database, organizationId: string, traceId: string, assertionIds: string[]) {
  if (!isUuid(traceId) || !(await q.findTraceLineage(db, organizationId, traceId.toLowerCase()))) throw notFound("Trace");
  const trace = traceId.toLowerCase();
  const ids = [...new Set(assertionIds)];
  await db.transaction(async (tx) => {
    const rows = await q.findAssertionRowsById(tx, organizationId, ids);
    const ofTrace = new Set(rows.filter((r) => r.traceId === trace).map((r) => r.id));
    const stranger = ids.find((id) => !ofTrace.has(id));
    if (stranger) throw new AppError("bad_request", `Assertion ${stranger} is not an assertion of trace ${trace}; nothing was archived.`);
    await q.archiveAssertionRows(tx, organizationId, trace, ids, new Date());
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
  const userIds = [...new Set(rows.flatMap((r) => [r.authorUserId, r.approvedByUserId]).filter((id): id is string => !!id))];
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
    approvedBy: user(r.approvedByUserId),
    approvedAt: r.approvedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}
