// The trace list's filters as they live in the URL, shared by the list and the labelling queue (which is
// the list's filter, walked trace by trace).
export const STATUSES = ["completed", "pending", "failed"] as const;
export const LABEL_STATES = [["unlabeled", "Unlabeled"], ["pass", "Labeled pass"], ["fail", "Labeled fail"], ["validated", "Validated (approved)"]] as const;
export const KINDS = [["captured", "Captured"], ["seeded", "Seeded"], ["replay", "Replay"]] as const;
/** URL parameters that are filters (paging and the queue's position are not). */
export const FILTER_PARAMS = ["fn", "session", "status", "q", "label", "kind", "from", "to", "replays", "model", "grader", "graderLabel", "graderCategory", "verdictSource", "run", "minCost"] as const;
export const VERDICT_SOURCES = ["human", "agent", "judge"] as const;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = (value: string | null) => (value && UUID_RE.test(value) ? value : undefined);
const amount = (value: string | null) => (value && Number.isFinite(Number(value)) && Number(value) >= 0 ? Number(value) : undefined);

function oneOf<T extends string>(value: string | null, values: readonly T[]): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** An ISO instant from the URL, or undefined when it is not one (a hand-edited URL must not break the page). */
function instant(value: string | null): string | undefined {
  return value && !Number.isNaN(Date.parse(value)) && /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(value) ? value : undefined;
}

export function readFilters(params: URLSearchParams) {
  return {
    traceFunctionKey: params.get("fn") || undefined,
    sessionId: params.get("session") || undefined,
    status: oneOf(params.get("status"), STATUSES),
    search: params.get("q") || undefined,
    labelState: oneOf(params.get("label"), LABEL_STATES.map(([v]) => v)),
    kind: oneOf(params.get("kind"), KINDS.map(([v]) => v)),
    startedFrom: instant(params.get("from")),
    startedTo: instant(params.get("to")),
    /** `replays=1`: replay traces too (left out by default; the kind filter "Replay" shows only them). */
    includeReplays: params.get("replays") === "1",
    /** The dashboard's click-through filters (docs/dashboard.md): a model, a grader's labels, a verdict source, an experiment. */
    model: params.get("model") || undefined,
    graderId: uuid(params.get("grader")),
    graderLabel: oneOf(params.get("graderLabel"), ["pass", "fail", "scored"] as const),
    graderCategory: params.get("graderCategory") || undefined,
    verdictSource: oneOf(params.get("verdictSource"), VERDICT_SOURCES),
    testRunId: uuid(params.get("run")),
    minCostUsd: amount(params.get("minCost")),
  };
}

/** Only the filter parameters of a URL query, in a stable order (the queue's key and its links back). */
export function filterQuery(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const key of FILTER_PARAMS) {
    const v = params.get(key);
    if (v) out.set(key, v);
  }
  return out.toString();
}
