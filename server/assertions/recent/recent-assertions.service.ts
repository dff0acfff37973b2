// Recent assertions across traces for the console's Assertions page, in the same wire
// shape as GET /api/sdk/traces/{traceId}/assertions (toAssertionResponses), each with its trace.
import type { Database } from "../../db/client.ts";
import { decodeCursor, encodeCursor } from "../../shared/cursor.ts";
import { findAssertionRowsById } from "../assertions.queries.ts";
import { toAssertionResponses } from "../assertions.service.ts";
import type { TApprovalState, TTraceAssertion } from "../assertions.schemas.ts";
import * as q from "./recent-assertions.queries.ts";

export interface TRecentAssertion extends TTraceAssertion {
  trace: { id: string; name: string | null; traceFunctionKey: string | null; startedAt: string | null; replay: boolean };
}

type Key = { u: string; i: string };
const isKey = (v: unknown): v is Key =>
  typeof v === "object" && v !== null && /^-?\d{1,17}$/.test(String((v as Key).u)) && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(String((v as Key).i));

export type TStateCounts = Record<TApprovalState, number>;

/**
 * A page of the organization's active assertions in one review state ("all": every state), most recently
 * written first, with their traces, and how many there are in each state.
 */
export async function findRecentAssertions(
  db: Database,
  organizationId: string,
  input: { traceFunctionKey?: string; approvalState: TApprovalState | "all"; cursor?: string; limit: number },
): Promise<{ assertions: TRecentAssertion[]; nextCursor: string | null; counts: TStateCounts }> {
  const after = input.cursor !== undefined ? decodeCursor(input.cursor, isKey) : undefined;
  const page = await q.selectRecentAssertionIds(
    db,
    organizationId,
    {
      traceFunctionKey: input.traceFunctionKey,
      approvalState: input.approvalState === "all" ? undefined : input.approvalState,
      after: after && { updatedUs: after.u, id: after.i },
    },
    input.limit + 1,
  );
  const counts: TStateCounts = { pending: 0, approved: 0, rejected: 0 };
  for (const r of await q.countAssertionsByState(db, organizationId, input.traceFunctionKey)) {
    if (r.approval_state in counts) counts[r.approval_state as TApprovalState] = r.n;
  }
  const ids = page.slice(0, input.limit);
  const rows = ids.length ? await findAssertionRowsById(db, organizationId, ids.map((r) => r.id)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.flatMap((r) => byId.get(r.id) ?? []);
  const traces = new Map((await q.selectAssertionTraces(db, organizationId, [...new Set(ordered.map((r) => r.traceId))])).map((t) => [t.id, t]));
  const responses = await toAssertionResponses(db, organizationId, ordered);
  const last = ids.at(-1);
  return {
    assertions: responses.map((a) => {
      const t = traces.get(a.traceId);
      return {
        ...a,
        trace: {
          id: a.traceId,
          name: t?.name ?? null,
          traceFunctionKey: t?.traceFunctionKey ?? null,
          startedAt: t?.startedAt?.toISOString() ?? null,
          replay: Boolean(t?.testRunId),
        },
      };
    }),
    nextCursor: page.length > input.limit && last ? encodeCursor({ u: last.updated_us, i: last.id }) : null,
    counts,
  };
}
