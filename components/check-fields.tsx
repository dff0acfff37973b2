"use client";
// A deterministic check (docs/graders.md, "Rule graders"), shared by rule graders and assertions: the
// operation and, for those that need one, its value.
import { Field, Input, Select } from "./ui/field.tsx";

export const CHECK_OPS = [
  ["noErrors", "No span recorded an error"],
  ["equals", "Output equals (JSON)"],
  ["contains", "Output contains text"],
  ["matches", "Output matches regular expression"],
  ["maxDurationMs", "Duration at most (ms)"],
  ["maxTotalTokens", "Total tokens at most"],
] as const;

export type CheckState = { op: string; value: string };
export type Check = { op: "noErrors" } | { op: string; value: unknown };

export function checkFromConfig(check: unknown, fallbackOp = "noErrors"): CheckState {
  const c = check as { op?: string; value?: unknown } | null | undefined;
  const value = c?.value === undefined ? "" : typeof c.value === "string" ? c.value : JSON.stringify(c.value);
  return { op: c?.op ?? fallbackOp, value };
}

/** The check as the API takes it: numbers for limits, parsed JSON for equals (plain text when it is not JSON). */
export function toCheck(s: CheckState): Check {
  if (s.op === "noErrors") return { op: "noErrors" };
  if (s.op === "maxDurationMs" || s.op === "maxTotalTokens") return { op: s.op, value: Number(s.value) };
  if (s.op === "equals") return { op: s.op, value: parseJson(s.value) };
  return { op: s.op, value: s.value };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `describe` turns a check into a short sentence for lists. */
export function describeCheck(check: unknown): string | null {
  const c = check as { op?: string; value?: unknown } | null | undefined;
  if (!c?.op) return null;
  const label = CHECK_OPS.find(([op]) => op === c.op)?.[1] ?? c.op;
  return c.value === undefined ? label : `${label}: ${typeof c.value === "string" ? c.value : JSON.stringify(c.value)}`;
}

export function CheckFields({ value, onChange, allowNone }: { value: CheckState; onChange: (v: CheckState) => void; allowNone?: string }) {
  const numeric = value.op === "maxDurationMs" || value.op === "maxTotalTokens";
  return (
    <>
      <Field label="Check">{(id) => (
        <Select id={id} value={value.op} onChange={(e) => onChange({ ...value, op: e.target.value })}>
          {allowNone ? <option value="">{allowNone}</option> : null}
          {CHECK_OPS.map(([op, label]) => <option key={op} value={op}>{label}</option>)}
        </Select>
      )}</Field>
      {value.op && value.op !== "noErrors" ? (
        <Field label="Value">{(id) => (
          <Input id={id} required type={numeric ? "number" : "text"} min={numeric ? 0 : undefined} value={value.value} onChange={(e) => onChange({ ...value, value: e.target.value })} />
        )}</Field>
      ) : null}
    </>
  );
}
