"use client";
// What a grader records beside pass/fail (docs/graders.md, "Scores and categories"): nothing, a score in a range
// with an optional pass threshold, or a category from a set with optional passing categories. The server checks it.
import { Field, Input, Select } from "@/components/ui/field.tsx";

export interface OutputState {
  type: "passFail" | "score" | "category";
  min: string;
  max: string;
  passThreshold: string;
  categories: string;
  passingCategories: string;
}

const list = (text: string) => text.split(",").map((s) => s.trim()).filter(Boolean);

export function outputFromConfig(output: unknown): OutputState {
  const o = (output ?? {}) as { type?: string; min?: number; max?: number; passThreshold?: number; categories?: string[]; passingCategories?: string[] };
  return {
    type: o.type === "score" || o.type === "category" ? o.type : "passFail",
    min: o.min?.toString() ?? "0",
    max: o.max?.toString() ?? "10",
    passThreshold: o.passThreshold?.toString() ?? "",
    categories: (o.categories ?? []).join(", "),
    passingCategories: o.passingCategories?.join(", ") ?? "",
  };
}

/** The config's `output`, or undefined for pass/fail only (the config then reads as before). */
export function toOutput(s: OutputState): object | undefined {
  if (s.type === "score") return { type: "score", min: Number(s.min), max: Number(s.max), ...(s.passThreshold.trim() ? { passThreshold: Number(s.passThreshold) } : {}) };
  if (s.type === "category") return { type: "category", categories: list(s.categories), ...(s.passingCategories.trim() ? { passingCategories: list(s.passingCategories) } : {}) };
  return undefined;
}

export function OutputFields({ value: v, onChange, kind }: { value: OutputState; onChange: (v: OutputState) => void; kind: "rule" | "llm_judge" }) {
  const set = (k: keyof OutputState) => (e: { target: { value: string } }) => onChange({ ...v, [k]: e.target.value });
  return (
    <div className="space-y-3">
      <Field label="Records" hint={kind === "rule" ? "A duration or token check can record what it measured as a score." : "Besides pass/fail, the judge can give a score or a category."}>{(id) => (
        <Select id={id} value={v.type} onChange={set("type")}>
          <option value="passFail">Pass/fail</option>
          <option value="score">A score</option>
          {kind === "llm_judge" ? <option value="category">A category</option> : null}
        </Select>
      )}</Field>
      {v.type === "score" ? (
        <div className="grid grid-cols-3 gap-2">
          <Field label="Lowest score">{(id) => <Input id={id} type="number" step="any" required value={v.min} onChange={set("min")} />}</Field>
          <Field label="Highest score">{(id) => <Input id={id} type="number" step="any" required value={v.max} onChange={set("max")} />}</Field>
          {kind === "llm_judge" ? <Field label="Passes at" hint="Optional">{(id) => <Input id={id} type="number" step="any" value={v.passThreshold} onChange={set("passThreshold")} />}</Field> : null}
        </div>
      ) : null}
      {v.type === "category" ? (
        <>
          <Field label="Categories" hint="Comma-separated, at least two.">{(id) => <Input id={id} required value={v.categories} onChange={set("categories")} placeholder="polite, neutral, rude" />}</Field>
          <Field label="Passing categories" hint="Optional; comma-separated.">{(id) => <Input id={id} value={v.passingCategories} onChange={set("passingCategories")} />}</Field>
        </>
      ) : null}
    </div>
  );
}
