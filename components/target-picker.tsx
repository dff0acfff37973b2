"use client";
// The target of a grader or an assertion: the whole trace, the final output, or a span by name and
// occurrence (targets are span names, never span ids: docs/api/assertions.md). `spans`, when given,
// offers the names seen in the trace with how often each occurs, so the occurrence is chosen among those
// that exist (0-based in start order, as the graders resolve them). `spansLoading` says those names are on
// their way: the span fields wait, disabled, rather than offer a free-text name that turns into a list
// under the user's typing.
import { Field, Input, Select } from "./ui/field.tsx";

export type TargetState = { kind: "trace" | "output" | "span"; name: string; occurrence: string };
export type Target = null | { kind: "output" } | { kind: "span"; name: string; occurrence: "first" | "last" | number };
export type SpanNameCount = { name: string; count: number };

export function targetFromConfig(t: unknown): TargetState {
  const v = t as { kind?: string; name?: string; occurrence?: unknown } | null | undefined;
  if (v?.kind === "output") return { kind: "output", name: "", occurrence: "last" };
  if (v?.kind === "span") return { kind: "span", name: v.name ?? "", occurrence: String(v.occurrence ?? "last") };
  return { kind: "trace", name: "", occurrence: "last" };
}

export function toTarget(s: TargetState): Target {
  if (s.kind === "trace") return null;
  if (s.kind === "output") return { kind: "output" };
  const occurrence = s.occurrence === "first" || s.occurrence === "last" ? s.occurrence : Number(s.occurrence);
  return { kind: "span", name: s.name, occurrence: Number.isInteger(occurrence) || typeof occurrence === "string" ? occurrence : "last" };
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

/** A target in words, for lists. */
export function describeTarget(t: unknown): string {
  const v = targetFromConfig(t);
  if (v.kind === "trace") return "Whole trace";
  if (v.kind === "output") return "Final output";
  const which = v.occurrence === "last" ? "last" : v.occurrence === "first" ? "first" : `#${v.occurrence}`;
  return `Span “${v.name}” (${which})`;
}

export function TargetPicker({ value, onChange, spans, spansLoading = false }: {
  value: TargetState;
  onChange: (v: TargetState) => void;
  spans?: SpanNameCount[];
  spansLoading?: boolean;
}) {
  const set = (patch: Partial<TargetState>) => onChange({ ...value, ...patch });
  const known = spans?.find((s) => s.name === value.name);
  const indexes = Array.from({ length: known ? known.count : 5 }, (_, i) => i);
  // A stored name or occurrence the trace no longer shows stays selectable, so editing never loses it.
  const names = spans && value.name && !known ? [...spans, { name: value.name, count: 0 }] : spans;
  const extraOccurrence = /^\d+$/.test(value.occurrence) && !indexes.includes(Number(value.occurrence)) ? Number(value.occurrence) : null;
  return (
    <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3">
      <legend className="px-1 text-sm font-medium text-zinc-700">Target</legend>
      <Field label="Evaluate">{(id) => (
        <Select id={id} value={value.kind} onChange={(e) => set({ kind: e.target.value as TargetState["kind"] })}>
          <option value="trace">Whole trace</option>
          <option value="output">Final output</option>
          <option value="span">A span, by name</option>
        </Select>
      )}</Field>
      {value.kind === "span" ? (
        <div className="grid grid-cols-[minmax(0,1fr)_9rem] gap-3">
          <Field label="Span name" hint={spansLoading ? "Loading the trace's span names…" : undefined}>{(id) => spansLoading ? (
            <Select id={id} disabled aria-busy value={value.name}>
              {/* An edited assertion's stored name shows while the list loads. */}
              <option value={value.name}>{value.name || "Loading…"}</option>
            </Select>
          ) : names?.length ? (
            <Select id={id} required value={value.name} onChange={(e) => set({ name: e.target.value, occurrence: "last" })}>
              <option value="">Choose…</option>
              {names.map((s) => <option key={s.name} value={s.name}>{s.name}{s.count > 1 ? ` (×${s.count})` : ""}</option>)}
            </Select>
          ) : <Input id={id} required value={value.name} onChange={(e) => set({ name: e.target.value })} />}</Field>
          <Field label="Occurrence">{(id) => (
            <Select id={id} disabled={spansLoading} value={value.occurrence} onChange={(e) => set({ occurrence: e.target.value })}>
              <option value="last">Last</option>
              <option value="first">First</option>
              {indexes.map((i) => <option key={i} value={String(i)}>{ordinal(i + 1)} (#{i})</option>)}
              {extraOccurrence !== null ? <option value={String(extraOccurrence)}>#{extraOccurrence}</option> : null}
            </Select>
          )}</Field>
        </div>
      ) : null}
    </fieldset>
  );
}
