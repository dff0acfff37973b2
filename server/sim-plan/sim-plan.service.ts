// Sim plan use cases: what SDKs read (GET), decisions (POST, our extension) and the per-node view the console
// shows. Locks are computed from recorded spans at read time, so a stale decision on a node that became locked
// is never served (docs/api/sim-plan.md, "GET /api/sdk/sim-plan").
import type { Database } from "../db/client.ts";
import { describeLock, isServiceAssignedName, lockReasonsOf } from "./lock-rules.ts";
import * as q from "./sim-plan.queries.ts";
import type { TRefusedDecision, TSimPlanDecision, TSimPlanNode, TSimPlanNodeRef, TSimPlanNodeStats } from "./sim-plan.schemas.ts";
import { recordAuditEvents } from "../auth/audit/audit.service.ts";
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";

/** The nodes whose content capture is off and not locked (GET /api/sdk/sim-plan). */
export async function getSimPlan(db: Database, organizationId: string): Promise<TSimPlanNode[]> {
  const rows = await q.selectContentOffNodes(db, organizationId);
  return rows.map((r) => ({ traceFunctionKey: r.trace_function_key, name: r.name, captureContent: false as const }));
}

/**
 * Applies decisions; a decision on a locked node is refused and reported, the others apply. Decisions on nodes
 * not seen yet are stored (unless the name is service-assigned) and take effect once spans arrive. Turning a
 * node off turns off every unlocked node recorded beneath it (reported under `cascaded`); turning one on
 * changes that node only, and a node named in the same request keeps the value given for it.
 */
export async function decideSimPlan(
  db: Database,
  organizationId: string,
  actor: TAuditActor | null,
  decisions: TSimPlanDecision[],
): Promise<{ nodes: TSimPlanNode[]; refused: TRefusedDecision[]; cascaded: TSimPlanNodeRef[] }> {
  const { refused, cascaded } = await applyDecisions(db, organizationId, actor, decisions);
  return { nodes: await getSimPlan(db, organizationId), refused, cascaded };
}

/**
 * decideSimPlan on the nodes of one trace function, answered with the decisions that applied and that
 * function's plan over its `traceLimit` most recent traces, read once after the write (save_sim_plan, docs/mcp.md).
 */
export async function decideTraceFunctionPlan(
  db: Database,
  organizationId: string,
  actor: TAuditActor | null,
  traceFunctionKey: string,
  nodes: Array<{ name: string; captureContent: boolean }>,
  traceLimit: number,
) {
  const decisions = nodes.map((n) => ({ traceFunctionKey, name: n.name, captureContent: n.captureContent }));
  const { refused, cascaded } = await applyDecisions(db, organizationId, actor, decisions);
  const refusedNames = new Set(refused.map((r) => r.name));
  const applied = decisions.filter((d) => !refusedNames.has(d.name));
  return { applied, refused, cascaded, nodes: await findSimPlanOverview(db, organizationId, traceFunctionKey, traceLimit) };
}

async function applyDecisions(db: Database, organizationId: string, actor: TAuditActor | null, decisions: TSimPlanDecision[]) {
  // The same node twice in one request: the last decision wins.
  const unique = [...new Map(decisions.map((d) => [nodeId(d.traceFunctionKey, d.name), d])).values()];
  const { accepted, refused } = await splitLocked(db, organizationId, unique);
  const named = new Set(unique.map((d) => nodeId(d.traceFunctionKey, d.name)));
  const beneath = (await q.selectDescendantNodes(db, organizationId, accepted.filter((d) => !d.captureContent)))
    .map((r) => ({ traceFunctionKey: r.trace_function_key, name: r.name, captureContent: false }))
    .filter((d) => !named.has(nodeId(d.traceFunctionKey, d.name)));
  // Locked nodes beneath keep their content; they are never listed as off anyway.
  const cascaded = (await splitLocked(db, organizationId, beneath)).accepted;
  await writeDecisions(db, organizationId, actor, [...accepted, ...cascaded]);
  return { refused, cascaded: cascaded.map(({ traceFunctionKey, name }): TSimPlanNodeRef => ({ traceFunctionKey, name })) };
}

/**
 * The console's toggle: decideSimPlan, answering also what every node it changed (the node and those turned
 * off beneath it) was before, so the change can be undone with restoreSimPlan (docs/console.md, "Sim plan").
 */
export async function decideSimPlanUndoable(db: Database, organizationId: string, actor: TAuditActor | null, decisions: TSimPlanDecision[]) {
  const before = new Map((await q.selectDecisions(db, organizationId)).map((d) => [nodeId(d.trace_function_key, d.name), d.capture_content]));
  const result = await decideSimPlan(db, organizationId, actor, decisions);
  const refused = new Set(result.refused.map((r) => nodeId(r.traceFunctionKey, r.name)));
  const changed = [...decisions.filter((d) => !refused.has(nodeId(d.traceFunctionKey, d.name))), ...result.cascaded];
  // A node without a decision captured its content; restoring it decides "capture", which reads the same.
  const previous = changed.map((n) => ({ traceFunctionKey: n.traceFunctionKey, name: n.name, captureContent: before.get(nodeId(n.traceFunctionKey, n.name)) ?? true }));
  return { ...result, previous };
}

/**
 * Puts decisions back exactly as given (the undo of a console toggle): no cascade, locked nodes refused as
 * in decideSimPlan; the user who restores is recorded as the one who decided.
 */
export async function restoreSimPlan(db: Database, organizationId: string, actor: TAuditActor | null, decisions: TSimPlanDecision[]) {
  const unique = [...new Map(decisions.map((d) => [nodeId(d.traceFunctionKey, d.name), d])).values()];
  const { accepted, refused } = await splitLocked(db, organizationId, unique);
  await writeDecisions(db, organizationId, actor, accepted);
  return { restored: accepted.map(({ traceFunctionKey, name }) => ({ traceFunctionKey, name })), refused };
}

/**
 * Stores decisions and, in the same transaction, what each node's decision was before and is after in the audit
 * log (a node that had none was capturing). Without an actor (a test, a job) nothing is logged.
 */
async function writeDecisions(db: Database, organizationId: string, actor: TAuditActor | null, decisions: TSimPlanDecision[]) {
  if (decisions.length === 0) return;
  await db.transaction(async (tx) => {
    const before = new Map((await q.selectDecisions(tx, organizationId)).map((d) => [nodeId(d.trace_function_key, d.name), d.capture_content]));
    await q.upsertDecisions(tx, organizationId, actor?.userId ?? null, decisions);
    if (!actor) return;
    await recordAuditEvents(tx, organizationId, actor, decisions.flatMap((d) => {
      const was = before.get(nodeId(d.traceFunctionKey, d.name));
      if (was === d.captureContent) return [];
      const target = { traceFunctionKey: d.traceFunctionKey, name: d.name };
      return [{ kind: "sim-plan.decided", targetType: "sim-plan-node", targetId: `${d.traceFunctionKey}/${d.name}`, before: was === undefined ? null : { ...target, captureContent: was }, after: { ...target, captureContent: d.captureContent } }];
    }));
  });
}

async function splitLocked(db: Database, organizationId: string, decisions: TSimPlanDecision[]) {
  const stats = await q.selectNodeStats(db, organizationId, { nodes: decisions });
  const byNode = new Map(stats.map((s) => [nodeId(s.trace_function_key, s.name), s]));
  const refused: TRefusedDecision[] = [];
  const accepted: TSimPlanDecision[] = [];
  for (const d of decisions) {
    const s = byNode.get(nodeId(d.traceFunctionKey, d.name));
    const reasons = lockReasonsOf({ name: d.name, root: s?.root ?? false, framework: s?.framework ?? false, imported: s?.imported ?? false });
    if (reasons.length > 0) refused.push({ traceFunctionKey: d.traceFunctionKey, name: d.name, reason: describeLock(reasons) });
    else accepted.push(d);
  }
  return { accepted, refused };
}

/**
 * Every node seen in recorded spans or named by a decision, with span counts (content-off spans included),
 * the stored decision, the effective capture setting and lock reasons. For the console's sim plan page.
 */
export async function findSimPlanNodes(db: Database, organizationId: string, filter: { traceFunctionKey?: string } = {}): Promise<TSimPlanNodeStats[]> {
  const [stats, decisions] = await Promise.all([
    q.selectNodeStats(db, organizationId, filter),
    q.selectDecisions(db, organizationId, filter.traceFunctionKey),
  ]);
  const decided = new Map(decisions.map((d) => [nodeId(d.trace_function_key, d.name), d.capture_content]));
  const who = new Map(decisions.map((d) => [nodeId(d.trace_function_key, d.name), { decidedBy: d.decided_by, decidedAt: new Date(d.decided_at).toISOString() }]));
  const noOne = { decidedBy: null, decidedAt: null };
  const nodes = new Map<string, TSimPlanNodeStats>();
  for (const s of stats) {
    const reasons = lockReasonsOf(s);
    const decision = decided.get(nodeId(s.trace_function_key, s.name)) ?? null;
    nodes.set(nodeId(s.trace_function_key, s.name), {
      traceFunctionKey: s.trace_function_key,
      name: s.name,
      spanCount: s.span_count,
      contentOffSpanCount: s.content_off_count,
      decision,
      captureContent: reasons.length > 0 || decision !== false,
      locked: reasons.length > 0,
      lockReasons: reasons,
      ...(who.get(nodeId(s.trace_function_key, s.name)) ?? noOne),
    });
  }
  for (const d of decisions) {
    const id = nodeId(d.trace_function_key, d.name);
    if (nodes.has(id)) continue;
    const locked = isServiceAssignedName(d.name);
    nodes.set(id, {
      traceFunctionKey: d.trace_function_key,
      name: d.name,
      spanCount: 0,
      contentOffSpanCount: 0,
      decision: d.capture_content,
      captureContent: locked || d.capture_content,
      locked,
      lockReasons: locked ? ["service_name"] : [],
      ...(who.get(id) ?? noOne),
    });
  }
  return [...nodes.values()].sort((x, y) => cmp(x.traceFunctionKey, y.traceFunctionKey) || cmp(x.name, y.name));
}

const nodeId = (traceFunctionKey: string, name: string) => JSON.stringify([traceFunctionKey, name]);
const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

export interface TSimPlanOverviewNode extends TSimPlanNodeStats {
  /** Most common span type and parent node name, calls and traces, over the recent traces read. */
  type: string | null;
  parent: string | null;
  recentCalls: number;
  recentTraces: number;
}

/**
 * One trace function's plan over its `traceLimit` most recent traces and replays: each node's span type,
 * parent, call and trace counts, with its decision, effective capture and lock reasons.
 */
export async function findSimPlanOverview(db: Database, organizationId: string, traceFunctionKey: string, traceLimit: number): Promise<TSimPlanOverviewNode[]> {
  const [nodes, usage] = await Promise.all([
    findSimPlanNodes(db, organizationId, { traceFunctionKey }),
    q.selectRecentNodeUsage(db, organizationId, traceFunctionKey, traceLimit),
  ]);
  const used = new Map(usage.map((u, i) => [u.name, { ...u, order: i }]));
  return nodes
    .map((n) => {
      const u = used.get(n.name);
      return { ...n, type: u?.type ?? null, parent: u?.parent ?? null, recentCalls: u?.calls ?? 0, recentTraces: u?.traces ?? 0, order: u?.order ?? Number.MAX_SAFE_INTEGER };
    })
    .sort((a, b) => a.order - b.order || cmp(a.name, b.name))
    .map(({ order: _order, ...n }) => n);
}
