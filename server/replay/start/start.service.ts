// POST /api/sdk/replay/start: selects the originals, records the experiment (test run) with its items, and
// answers the items (http-interface.md "POST /api/sdk/replay/start"; wire-facts §9.1, §20.8).
import type { Database } from "../../db/client.ts";
import { newId } from "../../ids.ts";
import { toStorableJson } from "../../traces/storable-json.ts";
import { insertExperiment } from "../experiments/experiments.queries.ts";
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
  // dryRun: select, create nothing (wire-facts §9.1).
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
  };
  // One transaction: a run never exists without the traces it replays.
  await db.transaction((tx) => insertExperiment(tx, experiment, items.map((i) => i.originalTraceId)));
  const url = experimentUrl(id);
  return { testRunId: id, testRunUrl: url, experimentId: id, experimentUrl: url, attempts, dryRun: false, items };
}

/** Code-change capture and git state as sent, for the console; null when the SDK sent none. */
function codeChangeOf(body: TStartBody): object | null {
  if (body.codeChangeDescription == null && body.codeChangeFiles == null && body.git == null) return null;
  return storable({ description: body.codeChangeDescription ?? null, files: body.codeChangeFiles ?? null, git: body.git ?? null });
}

/** jsonb refuses NUL and lone surrogates; they become U+FFFD rather than a 500. */
const storable = (value: object) => toStorableJson(value).value as object;
