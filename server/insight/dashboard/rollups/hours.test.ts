// The rollups' hour arithmetic and the percentiles read from their latency histograms.
import { describe, expect, it } from "vitest";
import { ceilHour, floorHour, mergeRanges, subtractRanges } from "./hours.ts";
import { histogramPercentile } from "./rollups.read.ts";
import { LATENCY_RATIO } from "./rollups.queries.ts";

const d = (s: string) => new Date(`2026-09-01T${s}:00Z`);
const r = (a: string, b: string) => ({ start: d(a), end: d(b) });

describe("rollup hours", () => {
  it("cuts hours in UTC and merges and subtracts ranges", () => {
    expect(new Date(floorHour(d("10:37").getTime())).toISOString()).toBe("2026-09-01T10:00:00.000Z");
    expect(new Date(ceilHour(d("10:37").getTime())).toISOString()).toBe("2026-09-01T11:00:00.000Z");
    expect(ceilHour(d("10:00").getTime())).toBe(d("10:00").getTime());
    expect(mergeRanges([r("12:00", "13:00"), r("10:00", "11:00"), r("11:00", "12:00"), r("15:00", "16:00")])).toEqual([r("10:00", "13:00"), r("15:00", "16:00")]);
    expect(subtractRanges([r("09:37", "17:12")], [r("10:00", "12:00"), r("13:00", "14:00")])).toEqual([r("09:37", "10:00"), r("12:00", "13:00"), r("14:00", "17:12")]);
    expect(subtractRanges([r("10:00", "11:00")], [r("09:00", "12:00")])).toEqual([]);
  });

  it("reads percentiles from a log-spaced histogram within half a bucket, interpolating as percentile_cont", () => {
    const bucket = (ms: number) => 1 + Math.floor(Math.log(ms) / Math.log(LATENCY_RATIO));
    const values = [120, 250, 900, 2000, 2100, 3500, 8000, 15000, 60000];
    const hist = new Map<number, number>();
    for (const v of values) hist.set(bucket(v), (hist.get(bucket(v)) ?? 0) + 1);
    const exact = (p: number) => {
      const rank = p * (values.length - 1);
      const lo = Math.floor(rank);
      return values[lo]! + (rank - lo) * ((values[lo + 1] ?? values[lo]!) - values[lo]!);
    };
    for (const p of [0.5, 0.95, 0.99]) expect(Math.abs(histogramPercentile(hist, p)! - exact(p)) / exact(p)).toBeLessThan(0.026);
    expect(histogramPercentile(new Map(), 0.5)).toBeNull();
    expect(histogramPercentile(new Map([[0, 3]]), 0.5)).toBe(0);
  });
});
