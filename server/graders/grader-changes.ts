// "What changed" between two versions of a grader, in words, for its history (docs/graders.md, "History").
import type { GraderDefinition } from "./graders.queries.ts";

const SHORT = 60;

/** The leaves of a definition as dotted paths (config.check.value, name, live, ...) with their JSON text. */
function leaves(value: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
  } else if (value !== undefined) {
    out.set(path, JSON.stringify(value));
  }
  return out;
}

function show(json: string | undefined): string {
  if (json === undefined) return "(none)";
  return json.length > SHORT ? `${json.slice(0, SHORT - 1)}…"` : json;
}

/** The paths whose value differs, sorted, each with before and after as JSON text (undefined when absent). */
export function changedFields(before: GraderDefinition, after: GraderDefinition): { path: string; before?: string; after?: string }[] {
  const a = leaves(before, "", new Map());
  const b = leaves(after, "", new Map());
  return [...new Set([...a.keys(), ...b.keys()])].sort().filter((p) => a.get(p) !== b.get(p)).map((path) => ({ path, before: a.get(path), after: b.get(path) }));
}

/** One line such as `config.check.value: 140 → 99999; live: true → false`; long texts read "edited". */
export function describeChanges(before: GraderDefinition, after: GraderDefinition): string {
  const changes = changedFields(before, after).map(({ path, before: x, after: y }) =>
    (x?.length ?? 0) > SHORT || (y?.length ?? 0) > SHORT ? `${path} edited` : `${path}: ${show(x)} → ${show(y)}`);
  return changes.length ? changes.join("; ") : "No change";
}
