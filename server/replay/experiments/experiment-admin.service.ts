// Naming and organizing experiments (docs/api/replay.md, "Experiments and groups"): an experiment's name,
// notes and group; experiment groups (name, notes, the experiments in them); graders attached to an
// experiment or a group and re-run over its replay traces with the dataset re-run machinery.
import type { Database } from "../../db/client.ts";
import { badRequest, notFound } from "../../errors.ts";
import { isUuid, newId } from "../../ids.ts";
import { findGraderRowsByIds } from "../../graders/graders.queries.ts";
import { getSubjectRerun, startAttachedRerun, waitForRerun, type RerunSubject } from "../../grading/reruns/reruns.service.ts";
import { toSummaries, type TExperimentSummary } from "./experiment-list.service.ts";
import { getExperiment, idList } from "./experiments.service.ts";
import * as q from "./experiments.queries.ts";
import * as g from "./groups.queries.ts";

export interface TExperimentGroup {
  id: string;
  name: string | null;
  notes: string | null;
  graderIds: string[];
  experimentCount: number;
  createdAt: string;
  updatedAt: string;
}

const toGroup = (r: g.TGroupRow, experimentCount: number): TExperimentGroup => ({
  id: r.id,
  name: r.name,
  notes: r.notes,
  graderIds: idList(r.graderIds),
  experimentCount,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

async function requireGroup(db: Database, organizationId: string, id: string): Promise<g.TGroupRow> {
  const row = isUuid(id) ? await g.selectGroup(db, organizationId, id.toLowerCase()) : null;
  if (!row) throw notFound(`Experiment group ${id}`);
  return row;
}

/**
 * Edits an experiment's name, notes and group (omitted keeps, null clears; a group id that is new is created,
 * as at replay start). Another organization's experiment is a 404.
 */
export async function saveExperiment(
  db: Database,
  organizationId: string,
  input: { experimentId: string; name?: string | null; notes?: string | null; experimentGroupId?: string | null },
): Promise<TExperimentSummary> {
  const experiment = await getExperiment(db, organizationId, input.experimentId);
  await db.transaction(async (tx) => {
    if (input.experimentGroupId) {
      const owner = await g.ensureGroup(tx, organizationId, input.experimentGroupId);
      if (owner !== organizationId) throw notFound(`Experiment group ${input.experimentGroupId}`);
    }
    const clear = (v: string | null | undefined) => (v === "" ? null : v);
    await q.updateExperiment(tx, organizationId, experiment.id, { name: clear(input.name), notes: clear(input.notes), experimentGroupId: input.experimentGroupId });
  });
  return (await toSummaries(db, organizationId, [experiment.id]))[0]!;
}

/**
 * Creates a group of experiments (experimentIds required, 1-100, all the organization's) or edits one's name
 * and notes. A new group may take a client-made id.
 */
export async function saveExperimentGroup(
  db: Database,
  organizationId: string,
  input: { experimentGroupId?: string; experimentIds?: string[]; name?: string | null; notes?: string | null },
): Promise<{ group: TExperimentGroup; created: boolean }> {
  const existing = input.experimentGroupId ? await g.selectGroup(db, organizationId, input.experimentGroupId) : null;
  if (existing) {
    if (input.experimentIds?.length) throw badRequest("experimentIds are only for a new group; move an experiment with save_experiment (experimentGroupId).");
    if (input.name === undefined && input.notes === undefined) throw badRequest("An edit needs name or notes.");
    await g.updateGroup(db, organizationId, existing.id, { name: input.name, notes: input.notes });
    return { group: await getGroupSummary(db, organizationId, existing.id), created: false };
  }
  if (!input.experimentIds?.length) throw badRequest("A new group needs experimentIds (1 to 100 experiments).");
  const ids = [...new Set(input.experimentIds)];
  const id = input.experimentGroupId ?? newId();
  await db.transaction(async (tx) => {
    const known = await q.selectExistingExperimentIds(tx, organizationId, ids);
    const missing = ids.find((e) => !known.has(e));
    if (missing) throw notFound(`Experiment ${missing}`);
    const owner = await g.ensureGroup(tx, organizationId, id, { name: input.name, notes: input.notes });
    if (owner !== organizationId) throw notFound(`Experiment group ${id}`);
    await q.setExperimentsGroup(tx, organizationId, ids, id);
  });
  return { group: await getGroupSummary(db, organizationId, id), created: true };
}

async function getGroupSummary(db: Database, organizationId: string, id: string) {
  const row = await requireGroup(db, organizationId, id);
  const counts = await q.countGroupExperiments(db, organizationId, [row.id]);
  return toGroup(row, counts.get(row.id) ?? 0);
}

export async function findExperimentGroups(db: Database, organizationId: string, limit: number) {
  const rows = await g.selectGroups(db, organizationId, limit);
  const counts = await q.countGroupExperiments(db, organizationId, rows.map((r) => r.id));
  return { groups: rows.map((r) => toGroup(r, counts.get(r.id) ?? 0)) };
}

/** A group with its experiments (newest first, with their counts). */
export async function getExperimentGroup(db: Database, organizationId: string, id: string) {
  const group = await getGroupSummary(db, organizationId, id);
  const members = await q.selectGroupExperimentIds(db, organizationId, group.id);
  return { group, experiments: await toSummaries(db, organizationId, members.map((m) => m.id)) };
}

/** Graders of the organization that may be attached; a missing or archived one is a 400 naming it. */
async function checkGraders(db: Database, organizationId: string, graderIds: string[], traceFunctionKey?: string) {
  const rows = await findGraderRowsByIds(db, organizationId, graderIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of graderIds) {
    const r = byId.get(id);
    if (!r) throw badRequest(`Grader ${id} is not a grader of this organization.`);
    if (r.status !== "active") throw badRequest(`Grader ${id} is not active (${r.status}).`);
    if (traceFunctionKey && r.traceFunctionKey !== traceFunctionKey) throw badRequest(`Grader ${id} grades ${r.traceFunctionKey}, not ${traceFunctionKey}.`);
  }
}

/** Adds or removes graders of an experiment; returns the ids attached after the change. */
export async function changeExperimentGraders(db: Database, organizationId: string, experimentId: string, change: { add?: string[]; remove?: string[] }) {
  const experiment = await getExperiment(db, organizationId, experimentId);
  if (change.add) await checkGraders(db, organizationId, change.add, experiment.traceFunctionKey);
  const graderIds = applyChange(idList(experiment.graderIds), change);
  await q.updateExperiment(db, organizationId, experiment.id, { graderIds });
  return { experimentId: experiment.id, graderIds };
}

export async function changeGroupGraders(db: Database, organizationId: string, groupId: string, change: { add?: string[]; remove?: string[] }) {
  const group = await requireGroup(db, organizationId, groupId);
  if (change.add) await checkGraders(db, organizationId, change.add);
  const graderIds = applyChange(idList(group.graderIds), change);
  await g.updateGroup(db, organizationId, group.id, { graderIds });
  return { experimentGroupId: group.id, graderIds };
}

function applyChange(current: string[], change: { add?: string[]; remove?: string[] }) {
  const removed = new Set(change.remove ?? []);
  return [...new Set([...current, ...(change.add ?? [])])].filter((id) => !removed.has(id));
}

/**
 * Re-runs graders over an experiment's replay traces (attached: the experiment's graders and its group's),
 * or over every replay trace of a group's experiments (the group's graders and its experiments').
 */
export async function rerunGradersOn(db: Database, organizationId: string, target: { experimentId?: string; experimentGroupId?: string }, graderIds?: string[]) {
  const { subject, attachedIds } = await attachedGraders(db, organizationId, target);
  const rows = await findGraderRowsByIds(db, organizationId, attachedIds);
  return startAttachedRerun(db, organizationId, subject, rows.map((r) => ({ id: r.id, status: r.status })), graderIds);
}

export async function getRerunOn(db: Database, organizationId: string, target: { experimentId?: string; experimentGroupId?: string }, runId?: string) {
  const { subject } = await attachedGraders(db, organizationId, target);
  return getSubjectRerun(db, organizationId, subject, runId);
}

/** rerunGradersOn, then waiting up to `waitSeconds` for the run to finish (the agents' rerun_graders_on_experiment). */
export async function rerunGradersOnAndWait(db: Database, organizationId: string, target: { experimentId?: string; experimentGroupId?: string }, graderIds: string[] | undefined, waitSeconds: number) {
  const started = await rerunGradersOn(db, organizationId, target, graderIds);
  const waited = await waitForRerun(started.run, async (runId) => (await getRerunOn(db, organizationId, target, runId)).run, waitSeconds);
  return { ...waited, joinedExisting: started.joinedExisting };
}

async function attachedGraders(db: Database, organizationId: string, target: { experimentId?: string; experimentGroupId?: string }): Promise<{ subject: RerunSubject; attachedIds: string[] }> {
  if (target.experimentId) {
    const e = await getExperiment(db, organizationId, target.experimentId);
    const group = e.experimentGroupId ? await g.selectGroup(db, organizationId, e.experimentGroupId) : null;
    return { subject: { kind: "experiment", id: e.id }, attachedIds: [...new Set([...idList(e.graderIds), ...idList(group?.graderIds)])] };
  }
  const group = await requireGroup(db, organizationId, target.experimentGroupId ?? "");
  const members = await q.selectGroupExperimentIds(db, organizationId, group.id);
  return { subject: { kind: "experimentGroup", id: group.id }, attachedIds: [...new Set([...idList(group.graderIds), ...members.flatMap((m) => idList(m.graderIds))])] };
}
