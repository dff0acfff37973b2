"use client";
// The grader form's online evaluation settings (docs/graders.md, "Online evaluation"): the share of traces
// graded (sampleRate) and the filter (metadata key=value, tags, model, status). Saved as the config's `online`;
// left at 100 % with no filter, nothing is saved, as for a grader from before these settings.
import { Field, Input, Select, Textarea } from "@/components/ui/field.tsx";

export interface OnlineState {
  sampleRate: string;
  metadata: string;
  tags: string;
  model: string;
  status: "" | "completed" | "failed";
}

type Online = { sampleRate?: number; filter?: { metadata?: Record<string, unknown>; tags?: string[]; model?: string; status?: "completed" | "failed" } };

export function onlineFromConfig(online: unknown): OnlineState {
  const o = (online ?? {}) as Online;
  return {
    sampleRate: String(o.sampleRate ?? 100),
    metadata: Object.entries(o.filter?.metadata ?? {}).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join("\n"),
    tags: (o.filter?.tags ?? []).join(", "),
    model: o.filter?.model ?? "",
    status: o.filter?.status ?? "",
  };
}

/** A metadata value as typed: a number or true/false reads as such, anything else is text. */
function metadataValue(text: string): unknown {
  if (text === "true" || text === "false") return text === "true";
  return text !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
}

/** The config's `online`, or undefined when it grades everything (the server validates the rest). */
export function toOnline(s: OnlineState): Online | undefined {
  const metadata = Object.fromEntries(s.metadata.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
    const at = l.indexOf("=");
    return at < 0 ? [l, ""] : [l.slice(0, at).trim(), metadataValue(l.slice(at + 1).trim())];
  }));
  const tags = s.tags.split(",").map((t) => t.trim()).filter(Boolean);
  const filter = {
    ...(Object.keys(metadata).length ? { metadata } : {}),
    ...(tags.length ? { tags } : {}),
    ...(s.model.trim() ? { model: s.model.trim() } : {}),
    ...(s.status ? { status: s.status } : {}),
  };
  const sampleRate = s.sampleRate.trim() === "" ? 100 : Number(s.sampleRate);
  if (sampleRate === 100 && Object.keys(filter).length === 0) return undefined;
  return { sampleRate, ...(Object.keys(filter).length ? { filter } : {}) };
}

export function OnlineFields({ value, onChange }: { value: OnlineState; onChange: (v: OnlineState) => void }) {
  const set = (k: keyof OnlineState) => (e: { target: { value: string } }) => onChange({ ...value, [k]: e.target.value });
  return (
    <fieldset className="space-y-3 rounded-md border border-zinc-200 px-3 py-3">
      <legend className="px-1 text-sm font-medium text-zinc-700">Online evaluation</legend>
      <Field label="Sample rate (%)" hint="The share of this function's traces it grades, chosen by trace id: 100 grades all.">
        {(id) => <Input id={id} type="number" min={0} max={100} step={0.01} value={value.sampleRate} onChange={set("sampleRate")} />}
      </Field>
      <Field label="Metadata" hint="One key=value a line: only traces whose metadata holds each.">
        {(id) => <Textarea id={id} className="min-h-12 font-mono" value={value.metadata} onChange={set("metadata")} placeholder="plan=pro" />}
      </Field>
      <Field label="Tags" hint="Comma-separated: only traces whose metadata.tags holds all of them.">
        {(id) => <Input id={id} value={value.tags} onChange={set("tags")} placeholder="vip, eu" />}
      </Field>
      <Field label="Model" hint="Only traces with a span of exactly this model.">
        {(id) => <Input id={id} value={value.model} onChange={set("model")} placeholder="gpt-4o" />}
      </Field>
      <Field label="Status">{(id) => (
        <Select id={id} value={value.status} onChange={set("status")}>
          <option value="">Completed or failed</option><option value="completed">Completed only</option><option value="failed">Failed only</option>
        </Select>
      )}</Field>
    </fieldset>
  );
}
