// The rollup job (docs/scaling.md, "Dashboard"): per organization, under its state row's lock (so several
// instances never roll one organization at once), it rolls up the hours that settled since its last run and
// recomputes the hours that changed: late writes found by the partial index of migration 0295 (a write more than an
// hour after its trace's start), and hours marked dirty by deletes, labels and price recomputes. Ingestion is not
// touched: a write within the hour lands in an hour the dashboard still reads raw.
import type { Database } from "../../../db/client.ts";
import { logger } from "../../../logger.ts";
import { floorHour, hourRange, HOUR_MS, mergeRanges } from "./hours.ts";
import * as q from "./rollups.queries.ts";

export interface TRefreshResult {
  organizationId: string;
  /** Hours recomputed. */
  hours: number;
  rolledTo: Date | null;
}

/**
 * Hours before this are rolled up at `now`: every write not yet visible (stamped after now − SETTLE_MS) to a
 * trace of such an hour is over LATE_MS after the trace's start, so the partial index finds it on a later run.
 */
export const rolledToAt = (now: Date) => new Date(floorHour(now.getTime() - q.SETTLE_MS - q.LATE_MS));

/** New hours rolled up per transaction: a first run over months of traces is many short transactions, never
 * one long one (PGlite runs one transaction at a time, so ingestion waits for each). */
export const HOURS_PER_STEP = 24;

/** Rolls the organization up to date, in steps of at most HOURS_PER_STEP new hours. */
export async function refreshOrganizationRollups(db: Database, organizationId: string): Promise<TRefreshResult> {
  let hours = 0;
  for (;;) {
    const step = await refreshStep(db, organizationId);
    hours += step.hours;
    if (step.caughtUp) return { organizationId, hours, rolledTo: step.rolledTo };
  }
}

async function refreshStep(db: Database, organizationId: string): Promise<TRefreshResult & { caughtUp: boolean }> {
  return db.transaction(async (tx) => {
    const now = await q.selectNow(tx);
    const state = await q.lockState(tx, organizationId, now);
    const settled = rolledToAt(now);
    const ranges: q.TRange[] = [];
    if (state.rolledTo !== null && state.watermark !== null) {
      const since = new Date(state.watermark.getTime() - q.SETTLE_MS);
      for (const hour of await q.selectLateChangedHours(tx, organizationId, since, state.rolledTo)) ranges.push(hourRange(hour));
    }
    // New hours: from where rolling stopped, skipping to the next trace (a stray trace from years ago costs one
    // step, not one per empty day), at most HOURS_PER_STEP of them.
    const from = state.rolledTo;
    const next = from !== null && from >= settled ? null : await q.selectFirstTraceStart(tx, organizationId, from);
    const stepStart = next === null ? settled : new Date(Math.max(floorHour(next.getTime()), from?.getTime() ?? -Infinity));
    const rolledTo = stepStart >= settled ? settled : new Date(Math.min(settled.getTime(), stepStart.getTime() + HOURS_PER_STEP * HOUR_MS));
    const start = from ?? stepStart;
    if (start < rolledTo) ranges.push({ start, end: rolledTo });
    // What is rolled up after this step (never less than before, even if the clock went back).
    const until = state.rolledTo !== null && state.rolledTo > rolledTo ? state.rolledTo : rolledTo;
    // Marks of hours not rolled up go too: those hours are computed whole when they are.
    const dirty = await q.selectDirty(tx, organizationId);
    for (const d of dirty) if (d.hour < until) ranges.push(hourRange(d.hour));
    const merged = mergeRanges(ranges.map((r) => ({ start: r.start, end: r.end < until ? r.end : until })));
    await q.recomputeRanges(tx, organizationId, merged);
    await q.deleteDirty(tx, organizationId, dirty);
    await q.upsertState(tx, organizationId, { rolledTo: until, watermark: now }, now);
    const hours = merged.reduce((n, r) => n + (r.end.getTime() - r.start.getTime()) / HOUR_MS, 0);
    return { organizationId, hours, rolledTo, caughtUp: rolledTo.getTime() >= settled.getTime() };
  }, { timeout: 10 * 60_000 });
}

/** One run of the job over every organization. */
export async function refreshRollups(db: Database): Promise<TRefreshResult[]> {
  const out: TRefreshResult[] = [];
  for (const org of await q.selectOrganizationIds(db)) {
    try {
      out.push(await refreshOrganizationRollups(db, org));
    } catch (err) {
      // One organization's failure leaves its hours read raw; the others still roll.
      logger.error("dashboard rollup failed", { organizationId: org, error: String(err) });
    }
  }
  return out;
}
