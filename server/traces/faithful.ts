// Faithfulness of a trace (docs/sdk-transport.md, rule 6; docs/api/traces.md, "Trace object"): a trace one of
// whose spans the SDK trimmed to fit its budget (`payload_budget`) or could not capture exactly
// (`serialization_degraded`) is not a faithful recording, so it is not replayed as one.
import { join, raw, sql, type Sql } from "../db/sql.ts";


/** Capture-note steps that make a trace unfaithful. */
export const UNFAITHFUL_STEPS = ["payload_budget", "serialization_degraded"] as const;

/** SQL condition: the span row `alias` carries a capture note of `step`. */
export function spanHasCaptureStep(alias: string, step: (typeof UNFAITHFUL_STEPS)[number]): Sql {
  return sql`${raw(`${alias}.errors`)} @> ${JSON.stringify([{ step }])}::jsonb`;
}

/** SQL condition: the span row `alias` carries a capture note of one of those steps. */
export function spanIsUnfaithful(alias: string): Sql {
  return sql`(${join(UNFAITHFUL_STEPS.map((step) => spanHasCaptureStep(alias, step)), " OR ")})`;
}

/** SQL condition: the trace row `alias` has an unfaithful span. */
export function traceIsUnfaithful(alias: string): Sql {
  const t = raw(alias);
  return sql`EXISTS (SELECT 1 FROM spans fs WHERE fs.organization_id = ${t}.organization_id AND fs.trace_id = ${t}.id AND ${spanIsUnfaithful("fs")})`;
}

/** What a replay item or a trace says about an unfaithful original, naming the steps found. */
export function describeUnfaithful(steps: string[]): string {
  return `Not a faithful recording: the SDK ${steps
    .map((s) => (s === "payload_budget" ? "trimmed oversized fields (payload_budget)" : "could not capture some values exactly (serialization_degraded)"))
    .join(" and ")}, so a replay may not reproduce the original.`;
}
