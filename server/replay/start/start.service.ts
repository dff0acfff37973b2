// POST /api/sdk/replay/start: selects the originals, records the experiment (test run) with its items, and
// answers the items (docs/api/replay.md, "POST /api/sdk/replay/start").
import type { Database } from "../../db/client.ts";
import { newId } from "../../ids.ts";
import { toStorableJson } from "../../traces/storable-json.ts";
import { badRequest } from "../../errors.ts";
import { insertExperiment } from "../experiments/experiments.queries.ts";
import { ensureGroup } from "../experiments/groups.queries.ts";
import { experimentUrl } from "../experiments/experiments.service.ts";
import { buildItems } from "./items.ts";
import { resolveSelection } from "./selection.ts";
import type { TStartBody, TStartResponse } from "./start.schemas.ts";

export async function startReplay(db: Database, auth: { organizationId: string; userId: string }, body: TStartBody): Promise<TStartResponse> {
  const selection = await resolveSelection(db, auth.organizationId, body);
  const items = await buildItems(db, auth.organizationId, selection.traceIds, {
    includeDbBranchLease: Boolean(body.includeDbBranchLease),
    includeOriginalMetadata: Boolean(body.includeOriginalMetadata),
  });
  const attempts = body.attempts ?? 1;
  // dryRun: select, create nothing (docs/api/replay.md).
  if (body.dryRun) {
    return { testRunId: null, testRunUrl: null, experimentId: null, experimentUrl: null, attempts, dryRun: true, items };
  }
  const id = newId();
  const experiment = {
    id,
    organizationId: auth.organizationId,
    name: body.name ?? null,
    notes: body.notes ?? null,
    traceFunctionKey: body.traceFunctionKey,
    selection: { ...selection.request, ...(body.onlyWithAssertions ? { onlyWithAssertions: true } : {}) },
    graderIds: selection.graderIds,
    datasetIds: selection.datasetIds,
    attempts,
    judgeAssertions: body.judgeAssertions ?? true,
    metadata: storable(body.metadata ?? {}),
    codeChange: codeChangeOf(body),
    createdByUserId: auth.userId,
    experimentGroupId: body.experimentGroupId ?? null,
    ...gitStateOf(body),
  };
  // One transaction: a run never exists without the traces it replays (nor without its group).
  await db.transaction(async (tx) => {
    if (experiment.experimentGroupId) {
      const owner = await ensureGroup(tx, auth.organizationId, experiment.experimentGroupId);
      if (owner !== auth.organizationId) throw badRequest(`experimentGroupId ${experiment.experimentGroupId} is not an experiment group of this organization; choose a new id.`);
    }
    await insertExperiment(tx, experiment, items.map((i) => i.originalTraceId));
  });
  const url = experimentUrl(id);
  return { testRunId: id, testRunUrl: url, experimentId: id, experimentUrl: url, attempts, dryRun: false, items };
}

/** Git branch and commit: the SDK's `git` state, else the metadata's gitBranch / commitSha. */
function gitStateOf(body: TStartBody): { gitBranch: string | null; commitSha: string | null } {
  const pick = (...values: unknown[]) => {
    const v = values.find((x) => typeof x === "string" && x.trim() !== "");
    return typeof v === "string" ? v.replace(/\u0000/g, "").slice(0, 1000) : null;
  };
  const git = body.git ?? {};
  const meta = body.metadata ?? {};
  return {
    gitBranch: pick(git.branch, git.gitBranch, meta.gitBranch, meta.git_branch, meta.branch),
    commitSha: pick(git.commitSha, git.experimentSha, meta.commitSha, meta.commit_sha),
  };
}

/** Code-change capture and git state as sent, for the console; null when the SDK sent none. */
function codeChangeOf(body: TStartBody): object | null {
  if (body.codeChangeDescription == null && body.codeChangeFiles == null && body.git == null) return null;
  return storable({ description: body.codeChangeDescription ?? null, files: body.codeChangeFiles ?? null, git: body.git ?? null });
}

/** jsonb refuses NUL and lone surrogates; they become U+FFFD rather than a 500. */
const storable = (value: object) => toStorableJson(value).value as object;
