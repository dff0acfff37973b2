// Every replay trace of one experiment against its original: the verdict change (fixed, regressed,
// still-passing, still-failing, or unpaired when either side has no PASS/FAIL verdict or the original is
// gone), and the tokens and duration of both. Over the same comparison the console's replay page shows.
import type { Database } from "../../db/client.ts";
import type { TTokens } from "../../traces/traces.schemas.ts";
import { getExperimentComparison, type TComparedTrace, type TExperimentSummary } from "./experiment-list.service.ts";

export type TReplayVerdict = "fixed" | "regressed" | "still-passing" | "still-failing" | "unpaired";

/** How a replay's whole-trace verdict compares with its original's. */
export function classifyReplay(original: boolean | null | undefined, replay: boolean | null | undefined): TReplayVerdict {
  if (original == null || replay == null) return "unpaired";
  if (original) return replay ? "still-passing" : "regressed";
  return replay ? "fixed" : "still-failing";
}

export interface TExperimentTrace {
  traceId: string;
  originalTraceId: string;
  attempt: number | null;
  verdict: TReplayVerdict;
  label: boolean | null;
  originalLabel: boolean | null;
  tokens: TTokens;
  originalTokens: TTokens;
  durationMs: number | null;
  originalDurationMs: number | null;
}

const labelOf = (t: TComparedTrace | null) => (t?.verdict?.labelStatus === "labeled" ? t.verdict.label : null);

/** Every page of an experiment's comparison, 100 originals at a time. */
export async function* experimentComparisonPages(db: Database, organizationId: string, experimentId: string) {
  let cursor: number | undefined;
  do {
    const page = await getExperimentComparison(db, organizationId, { id: experimentId, cursor, limit: 100 });
    yield page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

export async function findExperimentTraces(db: Database, organizationId: string, experimentId: string): Promise<{ experiment: TExperimentSummary; traces: TExperimentTrace[] }> {
  const traces: TExperimentTrace[] = [];
  let experiment: TExperimentSummary | undefined;
  for await (const page of experimentComparisonPages(db, organizationId, experimentId)) {
    experiment = page.experiment;
    for (const item of page.items) {
      for (const replay of item.replays) {
        traces.push({
          traceId: replay.traceId,
          originalTraceId: item.originalTraceId,
          attempt: replay.attempt,
          verdict: item.original ? classifyReplay(labelOf(item.original), labelOf(replay)) : "unpaired",
          label: labelOf(replay),
          originalLabel: labelOf(item.original),
          tokens: replay.tokens,
          originalTokens: item.original?.tokens ?? null,
          durationMs: replay.outline.durationMs,
          originalDurationMs: item.original?.outline.durationMs ?? null,
        });
      }
    }
  }
  return { experiment: experiment!, traces };
}
