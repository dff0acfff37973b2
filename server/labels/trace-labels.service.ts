// Writing trace verdicts (docs/api/labels.md, "POST /api/sdk/traces/labels" and
// "POST /api/sdk/traces/labels/human"). A new verdict supersedes the current one of its target, so history
// is kept; every batch runs in one transaction.
import { recordAuditEvents } from "../auth/audit/audit.service.ts";
import type { TAuditActor, TAuditChange } from "../auth/audit/audit.schemas.ts";
import type { DbClient } from "../db/client.ts";
import { findTraceLineageIds } from "../assertions/assertions.service.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { canonicalId } from "../ids.ts";
import type { TAgentLabelEntry, TAgentLabelsBody, THumanLabelEntry, TTraceLabels } from "./labels.schemas.ts";
import { findKnownTraceLabels } from "./trace-labels-read.service.ts";
import * as q from "./trace-labels.queries.ts";
import type { NewTraceLabel, TReplacedVerdict } from "./trace-labels.queries.ts";

const TX_OPTIONS = { timeout: 60_000, maxWait: 30_000 };
type Tx = DbClient;
type Action = "set" | "skipped" | "archived" | "no-active-label";

/**
 * Records one verdict as the current one of its target (trace, assertion or none), superseding the
 * previous. For the replay judge (labelSource "judge", labelStatus "errored" when a target is missing)
 * and other features; call inside a transaction.
 */
export async function recordTraceVerdict(tx: Tx, row: NewTraceLabel, at = new Date()): Promise<TReplacedVerdict | null> {
  await q.lockTraceLabels(tx, row.organizationId, row.traceId);
  const evidence = row.evidence === undefined ? await q.findCurrentEvidence(tx, row) : row.evidence;
  const replaced = await q.supersedeCurrent(tx, row, at);
  await q.insertLabel(tx, { ...row, evidence }, at);
  return replaced;
}

/** A verdict change as the audit log records it: on the trace, naming the assertion, the verdict before and after. */
function verdictChange(kind: string, t: { traceId: string; assertionId: string | null }, before: TReplacedVerdict | null, after: TReplacedVerdict | null): TAuditChange {
  const target = { assertionId: t.assertionId };
  return { kind, targetType: "trace", targetId: t.traceId, before: before && { ...target, ...before }, after: after && { ...target, ...after } };
}

/** Archive mode: the current verdict is superseded and none replaces it. */
async function archiveCurrent(tx: Tx, t: { organizationId: string; traceId: string; assertionId: string | null }, at: Date): Promise<TReplacedVerdict | null> {
  await q.lockTraceLabels(tx, t.organizationId, t.traceId);
  return q.supersedeCurrent(tx, t, at);
}

/** Locks every trace of the batch up front, in sorted order, so two batches never deadlock. */
async function lockAll(tx: Tx, organizationId: string, traceIds: string[]) {
  for (const id of [...new Set(traceIds)].sort()) await q.lockTraceLabels(tx, organizationId, id);
}

/** assertionId must be an active assertion of the trace or of the original it replays. */
async function assertApplies(tx: Tx, organizationId: string, pairs: { traceId: string; assertionId: string; where: string }[]) {
  if (pairs.length === 0) return;
  const active = new Map((await q.findActiveAssertions(tx, organizationId, pairs.map((p) => p.assertionId))).map((a) => [a.id, a.traceId]));
  for (const p of pairs) {
    const owner = active.get(p.assertionId);
    if (!owner || !(await findTraceLineageIds(tx, organizationId, p.traceId)).includes(owner)) {
      throw new AppError("bad_request", `${p.where}: assertion ${p.assertionId} is not an active assertion of trace ${p.traceId}; nothing was written.`, {
        issues: [{ path: `${p.where}.assertionId`, message: "not an active assertion of this trace" }],
      });
    }
  }
}

/**
 * Replay verdicts resolve (originalTraceId, testRunId, attempt) to the replay trace: the given attempt, or
 * without one attempt 0 (the lowest recorded). null when the replay trace is not persisted (yet).
 */
async function resolveReplay(tx: Tx, organizationId: string, testRunId: string, original: string, attempt?: number) {
  const replays = await q.findReplayTraces(tx, organizationId, testRunId, canonicalId(organizationId, original));
  if (attempt === undefined) return replays[0]?.id ?? null;
  return replays.find((r) => (r.replayAttempt ?? 0) === attempt)?.id ?? null;
}

interface Resolved {
  entry: TAgentLabelEntry;
  key: string;
  traceId: string | null;
}

/**
 * POST /api/sdk/traces/labels. A direct traceId that is not the organization's is a 404 for the whole
 * batch (nothing written); a replay verdict that does not resolve is reported per entry
 * ({traceId: null, action: "skipped", unresolved: true}) and writes nothing. New agent verdicts start
 * unapproved.
 */
export async function saveAgentLabels(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, body: TAgentLabelsBody) {
  const written = await writeAgentLabels(db, auth, actor, body, false);
  if ("unknown" in written) {
    const [first] = written.unknown;
    throw new AppError("not_found", `labels.${first.i}: trace ${first.given} not found; nothing was written.`);
  }
  return { labels: written.labels };
}

/** What a batch did to one entry: the id the caller gave, the trace it resolved to (null: a replay not stored), the action. */
export interface TLabelWrite {
  key: string;
  traceId: string | null;
  action: Action;
  unresolved?: boolean;
}

/** The verdicts in force after a write, beside what the write did to each entry (the agents' door answers with both). */
export type TLabelWritesReport = { unknownTraceIds: string[]; allUnknown: boolean } | { labels: TLabelWrite[]; current: TTraceLabels[] };

/**
 * saveAgentLabels for the agents' door (docs/mcp.md, "Results"): direct trace ids outside the organization
 * are reported, not thrown (nothing is written), and the verdicts in force after the write are read once,
 * in the same transaction.
 */
export async function saveAgentLabelsWithVerdicts(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, body: TAgentLabelsBody): Promise<TLabelWritesReport> {
  const written = await writeAgentLabels(db, auth, actor, body, true);
  if (!("unknown" in written)) return written;
  const given = [...new Set(written.unknown.map((u) => u.given))];
  const direct = new Set(body.labels.flatMap((e) => (e.traceId !== undefined ? [e.traceId] : [])));
  return { unknownTraceIds: given, allUnknown: given.length === direct.size };
}

type AgentLabelsWritten = { unknown: Array<{ i: number; given: string }> } | { labels: TLabelWrite[]; current: TTraceLabels[] };

async function writeAgentLabels(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, body: TAgentLabelsBody, readBack: boolean): Promise<AgentLabelsWritten> {
  const { organizationId } = auth;
  return db.transaction(async (tx) => {
    const { resolved, unknown } = await resolveEntries(tx, organizationId, body);
    if (unknown.length > 0) return { unknown };
    await assertApplies(tx, organizationId, resolved.flatMap((r, i) =>
      r.traceId && r.entry.assertionId ? [{ traceId: r.traceId, assertionId: r.entry.assertionId, where: `labels.${i}` }] : []));
    await lockAll(tx, organizationId, resolved.flatMap((r) => (r.traceId ? [r.traceId] : [])));
    const at = new Date();
    const out: TLabelWrite[] = [];
    const audit: TAuditChange[] = [];
    for (const { entry, key, traceId } of resolved) {
      if (!traceId) {
        out.push({ key, traceId: null, action: "skipped", unresolved: true });
        continue;
      }
      const target = { organizationId, traceId, assertionId: entry.assertionId ?? null };
      let action: Action;
      if (entry.archive) {
        const replaced = await archiveCurrent(tx, target, at);
        action = replaced ? "archived" : "no-active-label";
        if (replaced) audit.push(verdictChange("label.archived", target, replaced, null));
      } else {
        const skip = entry.skip === true;
        const verdict = { label: skip ? null : entry.label!, labelStatus: skip ? "skipped" : "labeled", labelSource: "agent", annotation: entry.annotation ?? null, approvalState: "pending" };
        const replaced = await recordTraceVerdict(tx, {
          ...target,
          labelStatus: skip ? "skipped" : "labeled",
          label: skip ? null : entry.label!,
          annotation: entry.annotation ?? null,
          confidence: skip ? null : (entry.confidence ?? null),
          labelSource: "agent",
          approved: false,
          approvedByUserId: null,
          authorUserId: auth.userId,
          testRunId: body.testRunId ?? null,
          evidence: entry.evidence,
        }, at);
        audit.push(verdictChange("label.agent", target, replaced, verdict));
        action = skip ? "skipped" : "set";
      }
      out.push({ key, traceId, action });
    }
    await recordAuditEvents(tx, organizationId, actor, audit);
    return { labels: out, current: readBack ? await currentVerdicts(tx, organizationId, out) : [] };
  }, TX_OPTIONS);
}

/** The current verdicts of the traces a batch wrote (known to exist): one read, inside the batch's transaction. */
async function currentVerdicts(tx: Tx, organizationId: string, written: Array<{ traceId: string | null }>): Promise<TTraceLabels[]> {
  const traceIds = [...new Set(written.flatMap((w) => (w.traceId ? [w.traceId] : [])))];
  return traceIds.length ? findKnownTraceLabels(tx, organizationId, traceIds) : [];
}

/** Entries resolved to their traces, or the direct trace ids (with their index) that are not the organization's. */
async function resolveEntries(tx: Tx, organizationId: string, body: TAgentLabelsBody): Promise<{ resolved: Resolved[]; unknown: Array<{ i: number; given: string }> }> {
  const direct = body.labels.flatMap((e) => (e.traceId !== undefined ? [canonicalId(organizationId, e.traceId)] : []));
  const known = await q.findExistingTraceIds(tx, organizationId, direct);
  const unknown = body.labels.flatMap((e, i) => (e.traceId !== undefined && !known.has(canonicalId(organizationId, e.traceId)) ? [{ i, given: e.traceId }] : []));
  if (unknown.length > 0) return { resolved: [], unknown };
  const resolved: Resolved[] = [];
  for (const entry of body.labels) {
    if (entry.traceId !== undefined) {
      resolved.push({ entry, key: entry.traceId, traceId: canonicalId(organizationId, entry.traceId) });
    } else {
      const original = (entry.originalTraceId ?? entry.sourceTraceId)!;
      resolved.push({ entry, key: original, traceId: await resolveReplay(tx, organizationId, body.testRunId!, original, entry.attempt) });
    }
  }
  return { resolved, unknown };
}

/**
 * POST /api/sdk/traces/labels/human: all or nothing. A trace outside the organization, the same target
 * twice, or an assertionId not active on its trace fails the whole batch with 400. Human verdicts are
 * validated at once (approved, approval_state approved).
 */
export async function saveHumanLabels(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, entries: THumanLabelEntry[]) {
  const { labels } = await writeHumanLabels(db, auth, actor, entries, false);
  return { labels };
}

/** saveHumanLabels for the agents' door: the writes and the verdicts in force after them, read once in the same transaction. */
export async function saveHumanLabelsWithVerdicts(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, entries: THumanLabelEntry[]) {
  return writeHumanLabels(db, auth, actor, entries, true);
}

async function writeHumanLabels(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, entries: THumanLabelEntry[], readBack: boolean) {
  const { organizationId } = auth;
  const rows = entries.map((e, i) => ({ ...e, i, traceId: canonicalId(organizationId, e.traceId), assertionId: e.assertionId ?? null }));
  const seen = new Set<string>();
  for (const r of rows) {
    const target = `${r.traceId}/${r.assertionId ?? "-"}`;
    if (seen.has(target)) throw batchError(r.i, "traceId", `names the same target (trace ${r.traceId}, assertion ${r.assertionId ?? "none"}) a second time`);
    seen.add(target);
  }
  return db.transaction(async (tx) => {
    const known = await q.findExistingTraceIds(tx, organizationId, rows.map((r) => r.traceId));
    const foreign = rows.find((r) => !known.has(r.traceId));
    if (foreign) throw batchError(foreign.i, "traceId", `trace ${entries[foreign.i].traceId} is not a trace of this organization`);
    await assertApplies(tx, organizationId, rows.flatMap((r) => (r.assertionId ? [{ traceId: r.traceId, assertionId: r.assertionId, where: `labels.${r.i}` }] : [])));
    await lockAll(tx, organizationId, rows.map((r) => r.traceId));
    const at = new Date();
    const audit: TAuditChange[] = [];
    for (const r of rows) {
      const replaced = await recordTraceVerdict(tx, {
        organizationId,
        traceId: r.traceId,
        assertionId: r.assertionId,
        labelStatus: "labeled",
        label: r.label,
        annotation: r.annotation ?? null,
        confidence: r.confidence ?? null,
        labelSource: "human",
        approved: true,
        approvedByUserId: auth.userId,
        authorUserId: auth.userId,
        testRunId: null,
        evidence: r.evidence,
      }, at);
      audit.push(verdictChange("label.human", r, replaced, { label: r.label, labelStatus: "labeled", labelSource: "human", annotation: r.annotation ?? null, approvalState: "approved" }));
    }
    await recordAuditEvents(tx, organizationId, actor, audit);
    const labels = rows.map((r) => ({ traceId: r.traceId, assertionId: r.assertionId, label: r.label, action: "set" as const }));
    return { labels, current: readBack ? await currentVerdicts(tx, organizationId, labels) : [] };
  }, TX_OPTIONS);
}

function batchError(i: number, field: string, message: string) {
  return new AppError("bad_request", `labels.${i}.${field}: ${message}; nothing was written.`, { issues: [{ path: `labels.${i}.${field}`, message }] });
}


/**
 * Drafted evidence (generate_label_evidence) joins the target's current agent verdict while it awaits a
 * person's validation; a validated or judge verdict is left as it is. Returns whether it was attached.
 */
export async function attachDraftEvidence(db: Database, t: { organizationId: string; traceId: string; assertionId: string | null }, evidence: { spanId: string; text: string }[]) {
  return db.transaction(async (tx) => {
    await q.lockTraceLabels(tx, t.organizationId, t.traceId);
    return q.setPendingAgentEvidence(tx, t, evidence);
  });
}
