// Experiment (test run) lookups shared by the replay endpoints.
import type { Database } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import { isUuid } from "../../ids.ts";
import * as q from "./experiments.queries.ts";

export type { TExperimentRow } from "./experiments.queries.ts";

/** Relative console path of a run; SDKs prepend their base URL (docs/api/replay.md, "POST /api/sdk/replay/start"). */
export const experimentUrl = (id: string) => `/replays/${id}`;

/** One experiment of the organization; another organization's id or an unknown one is a 404. */
export async function getExperiment(db: Database, organizationId: string, id: string): Promise<q.TExperimentRow> {
  const row = isUuid(id) ? await q.selectExperiment(db, organizationId, id.toLowerCase()) : null;
  if (!row) throw notFound(`Replay run ${id}`);
  return row;
}

/** A JSON column holding a list of ids (grader_ids, dataset_ids); anything else reads as empty. */
export function idList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}
