// Small readers for the loosely typed objects frameworks hand to callbacks (their shapes vary by version).

/** The value as an object, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

/** A non-empty string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A finite number, or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The object without its undefined entries. */
export function compact(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

/** `[context]` without undefined entries, or `[]` when nothing is left. */
export function contextList(context: Record<string, unknown>): Array<Record<string, unknown>> {
  const kept = compact(context);
  return Object.keys(kept).length > 0 ? [kept] : [];
}

/** Parses a JSON string (tool arguments travel as strings); anything else, or bad JSON, is returned unchanged. */
export function parseJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
