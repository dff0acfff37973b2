// A trace's title, wherever one is shown: its name, else (no name, or an empty one) its trace function key
// (docs/api/traces.md, "Trace object"). Search matches the same text (search.queries.ts).

export function traceTitle(name: string | null | undefined, traceFunctionKey: string | null | undefined): string | null {
  return name !== null && name !== undefined && name !== "" ? name : (traceFunctionKey ?? null);
}
