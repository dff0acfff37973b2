import type { Database } from "../../db/client.ts";
import type { TExperimentRow } from "../experiments.queries.ts";
import type { TRunTraceRow } from "../run-traces.queries.ts";

export async function evaluateReplayRun(_db: Database, _organizationId: string, _experiment: TExperimentRow, _traces: TRunTraceRow[]) {}
