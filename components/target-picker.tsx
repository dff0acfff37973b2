"use client";
// The target of a grader or an assertion: the whole trace, the final output, or a span by name and
// occurrence (targets are span names, never span ids: http-interface.md, Assertion). `spanNames`, when
// given, offers the names seen in the trace.
import { Field, Input, Select } from "./ui/field.tsx";

export type TargetState = { kind: "trace" | "output" | "span"; name: string; occurrence: string };
export type Target = null | { kind: "output" } | { kind: "span"; name: string; occurrence: "first" | "last" | number };

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

export function TargetPicker({ value, onChange, spanNames }: { value: TargetState; onChange: (v: TargetState) => void; spanNames?: string[] }) {
  const set = (patch: Partial<TargetState>) => onChange({ ...value, ...patch });
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
        <div className="grid grid-cols-[minmax(0,1fr)_8rem] gap-3">
          <Field label="Span name">{(id) => spanNames?.length ? (
            <Select id={id} required value={value.name} onChange={(e) => set({ name: e.target.value })}>
              <option value="">Choose…</option>
              {spanNames.map((n) => <option key={n} value={n}>{n}</option>)}
            </Select>
          ) : <Input id={id} required value={value.name} onChange={(e) => set({ name: e.target.value })} />}</Field>
          <Field label="Occurrence">{(id) => (
            <Select id={id} value={value.occurrence} onChange={(e) => set({ occurrence: e.target.value })}>
              <option value="last">Last</option>
              <option value="first">First</option>
              {[0, 1, 2, 3, 4].map((i) => <option key={i} value={String(i)}>#{i}</option>)}
            </Select>
          )}</Field>
        </div>
      ) : null}
    </fieldset>
  );
}
