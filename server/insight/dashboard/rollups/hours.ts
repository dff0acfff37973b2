// Hour arithmetic of the rollups: ranges of whole hours, merged and subtracted (UTC, from HOUR_ORIGIN).
import { HOUR_ORIGIN, type TRange } from "./rollups.queries.ts";

export const HOUR_MS = 3_600_000;
const ORIGIN_MS = Date.parse(HOUR_ORIGIN);

/** The start of the `stepMs`-long interval (counted from HOUR_ORIGIN) that holds `t`. */
export const floorTo = (t: number, stepMs: number) => ORIGIN_MS + Math.floor((t - ORIGIN_MS) / stepMs) * stepMs;
export const floorHour = (t: number) => floorTo(t, HOUR_MS);
export const ceilHour = (t: number) => (floorHour(t) === t ? t : floorHour(t) + HOUR_MS);

/** Sorted, with touching or overlapping ranges joined. */
export function mergeRanges(ranges: TRange[]): TRange[] {
  const sorted = ranges.filter((r) => r.start < r.end).sort((a, b) => a.start.getTime() - b.start.getTime());
  const out: TRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start.getTime() <= last.end.getTime()) {
      if (r.end > last.end) last.end = r.end;
    } else out.push({ start: new Date(r.start), end: new Date(r.end) });
  }
  return out;
}

/** `whole` minus the `holes` (both merged first). */
export function subtractRanges(whole: TRange[], holes: TRange[]): TRange[] {
  const out: TRange[] = [];
  const cut = mergeRanges(holes);
  for (const w of mergeRanges(whole)) {
    let start = w.start.getTime();
    for (const h of cut) {
      if (h.end.getTime() <= start || h.start.getTime() >= w.end.getTime()) continue;
      if (h.start.getTime() > start) out.push({ start: new Date(start), end: h.start });
      start = Math.max(start, h.end.getTime());
    }
    if (start < w.end.getTime()) out.push({ start: new Date(start), end: w.end });
  }
  return out;
}

export const hourRange = (hour: Date): TRange => ({ start: hour, end: new Date(hour.getTime() + HOUR_MS) });
