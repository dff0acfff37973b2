// A dashboard figure's traces: the trace list's URL with the filter the server gave the figure (docs/dashboard.md).
export interface TTraceLink {
  from?: string;
  to?: string;
  fn?: string;
  status?: string;
  model?: string;
  grader?: string;
  graderLabel?: string;
  graderCategory?: string;
  label?: string;
  verdictSource?: string;
  kind?: string;
  run?: string;
}

export function tracesHref(link: TTraceLink): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(link)) if (value) params.set(key, value);
  return `/traces?${params.toString()}`;
}

export const RANGES = [
  ["1h", "Last hour", 3_600_000],
  ["24h", "Last 24 hours", 86_400_000],
  ["7d", "Last 7 days", 7 * 86_400_000],
  ["30d", "Last 30 days", 30 * 86_400_000],
] as const;
export type TRangeKey = (typeof RANGES)[number][0];

/** The range ending now (to the next whole minute, so a reload in the same minute reads the same range). */
export function rangeOf(key: TRangeKey, now = Date.now()): { from: string; to: string } {
  const span = RANGES.find(([k]) => k === key)![2];
  const to = Math.ceil(now / 60_000) * 60_000;
  return { from: new Date(to - span).toISOString(), to: new Date(to).toISOString() };
}
