"use client";
// Grader labels on the trace page: each grader of the trace's function with its current label, score or category
// (docs/graders.md, "Scores and categories"), the labels later writes replaced, and, for people who may label, a
// form recording a score, a category or pass/fail on a grader (checked against the grader's range or set), and undo.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { formatRelative } from "@/components/ui/format.ts";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { useCan } from "../../_components/permissions.tsx";
import type { TTraceData as TraceData } from "../use-trace.ts";

type Label = TraceData["graderLabels"][number];
type Grader = RouterOutputs["graders"]["list"][number];
type History = RouterOutputs["labels"]["graderHistory"]["entries"][number];
/** The grader's declared output, read from its config as the server wrote it. */
type Output = { type: "passFail" } | { type: "score"; min: number; max: number; passThreshold?: number } | { type: "category"; categories: string[]; passingCategories?: string[] };

const outputOf = (g: Grader | undefined): Output => {
  const o = (g?.config as { output?: Output } | undefined)?.output;
  return o && (o.type === "score" || o.type === "category") ? o : { type: "passFail" };
};
const derives = (o: Output) => (o.type === "score" && o.passThreshold !== undefined) || (o.type === "category" && o.passingCategories !== undefined);

/**
 * `scored`: only the graders that record a score or a category, and nothing at all when there are none (the
 * review and labelling queues show them beside their own verdicts; docs/console.md).
 */
export function GraderLabels({ data, scored = false }: { data: TraceData; scored?: boolean }) {
  const trpc = useTRPC();
  const traceId = data.trace.id;
  const fn = data.trace.traceFunctionKey;
  const graders = useQuery({ ...trpc.graders.list.queryOptions({ traceFunctionKey: fn ?? undefined }), enabled: Boolean(fn) });
  const history = useQuery(trpc.labels.graderHistory.queryOptions({ traceId }));
  const byId = new Map((graders.data ?? []).map((g) => [g.id, g]));
  const labelled = new Map(data.graderLabels.map((l) => [l.graderId, l]));
  const all = [...new Set([...data.graderLabels.map((l) => l.graderId), ...(graders.data ?? []).filter((g) => g.status === "active").map((g) => g.id)])];
  const ids = scored ? all.filter((id) => outputOf(byId.get(id)).type !== "passFail") : all;
  if (scored && ids.length === 0) return null;
  const title = scored ? "Grader scores" : "Grader labels";
  return (
    <Card aria-label={title}>
      <CardHeader title={title} description={scored ? "Scores and categories of this trace's graders; pass/fail follows from a grader's threshold or passing categories. S records the first." : "Verdicts, scores and categories of the graders on this trace; earlier ones are kept."} />
      {ids.length === 0 ? (
        <p className="px-4 py-3 text-sm text-zinc-500">No grader has labelled this trace. Graders run when a trace completes, or from a dataset re-run.</p>
      ) : (
        <ul className="divide-y divide-zinc-100">
          {ids.map((id) => (
            <GraderRow key={id} traceId={traceId} graderId={id} label={labelled.get(id)} grader={byId.get(id)}
              replaced={(history.data?.entries ?? []).filter((e) => e.graderId === id && e.state === "replaced")} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function Outcome({ l }: { l: Pick<Label, "label" | "score" | "category" | "failureDiagnostic"> }) {
  return (
    <span className="flex items-center gap-1.5">
      {l.score !== null ? <Badge tone="accent">score {l.score}</Badge> : null}
      {l.category !== null ? <Badge tone="accent">{l.category}</Badge> : null}
      {l.label === null ? (l.failureDiagnostic !== null || (l.score === null && l.category === null) ? <Badge tone="warn">errored</Badge> : null)
        : <Badge tone={l.label ? "pass" : "fail"}>{l.label ? "pass" : "fail"}</Badge>}
    </span>
  );
}

function GraderRow({ traceId, graderId, label: l, grader, replaced }: { traceId: string; graderId: string; label?: Label; grader?: Grader; replaced: History[] }) {
  const canLabel = useCan("label");
  const [open, setOpen] = useState(false);
  const output = outputOf(grader);
  return (
    <li className="space-y-1 px-4 py-2.5" data-grader={l?.graderName ?? grader?.name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">
          {l?.graderName ?? grader?.name ?? graderId}
          {l ? <span className="text-xs font-normal text-zinc-500"> version {l.graderVersion}{l.source === "human" ? " · recorded by a person" : ""}</span> : null}
        </span>
        {l ? <Outcome l={l} /> : <span className="text-xs text-zinc-500">not graded</span>}
      </div>
      {output.type === "score" ? <p className="text-xs text-zinc-500">Score {output.min}–{output.max}{output.passThreshold !== undefined ? `, passes at ${output.passThreshold}` : ""}</p> : null}
      {output.type === "category" ? <p className="text-xs text-zinc-500">Categories: {output.categories.join(", ")}{output.passingCategories ? ` (passing: ${output.passingCategories.join(", ") || "none"})` : ""}</p> : null}
      {l?.labelReason ? <p className="text-xs text-zinc-600">{l.labelReason}</p> : null}
      {l?.failureDiagnostic ? <p className="text-xs text-amber-800">{l.failureDiagnostic}</p> : null}
      {replaced.length > 0 ? (
        <details className="text-xs text-zinc-500">
          <summary>{replaced.length} earlier</summary>
          <ol className="mt-1 space-y-1">
            {replaced.map((e) => (
              <li key={e.id} className="flex flex-wrap items-center gap-1.5 opacity-80">
                <Outcome l={e} /> {e.source === "human" ? `by ${e.decidedBy ?? "a deleted user"}` : "by the grader"} · replaced {e.replacedAt ? formatRelative(e.replacedAt) : ""}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {canLabel && grader && grader.status === "active" ? (
        open ? <RecordForm traceId={traceId} graderId={graderId} output={output} onDone={() => setOpen(false)} />
          : (
            <div className="flex gap-2">
              <Button size="sm" variant="secondary" data-record-score={output.type === "passFail" ? undefined : ""} onClick={() => setOpen(true)}>Record {output.type === "passFail" ? "verdict" : output.type}</Button>
              {l?.source === "human" ? <UndoButton traceId={traceId} graderId={graderId} /> : null}
            </div>
          )
      ) : null}
    </li>
  );
}

function useRefresh(traceId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.traces.get.queryKey({ id: traceId }) }),
    queryClient.invalidateQueries({ queryKey: trpc.labels.graderHistory.queryKey({ traceId }) }),
  ]);
}

function UndoButton({ traceId, graderId }: { traceId: string; graderId: string }) {
  const trpc = useTRPC();
  const undo = useMutation(trpc.labels.undoGraderLabel.mutationOptions({ onSuccess: useRefresh(traceId) }));
  return <Button size="sm" variant="ghost" disabled={undo.isPending} onClick={() => undo.mutate({ traceId, graderId })}>Undo</Button>;
}

function RecordForm({ traceId, graderId, output, onDone }: { traceId: string; graderId: string; output: Output; onDone: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefresh(traceId);
  const save = useMutation(trpc.labels.saveGraderLabel.mutationOptions({ onSuccess: async () => { await refresh(); onDone(); } }));
  const [score, setScore] = useState("");
  const [category, setCategory] = useState(output.type === "category" ? output.categories[0]! : "");
  const [verdict, setVerdict] = useState<"" | "pass" | "fail">("");
  const preview = previewOf(output, score, category);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const label = verdict === "" ? undefined : verdict === "pass";
    if (output.type === "score") save.mutate({ traceId, graderId, score: score === "" ? null : Number(score), label });
    else if (output.type === "category") save.mutate({ traceId, graderId, category, label });
    else save.mutate({ traceId, graderId, label });
  };
  return (
    // Keyboard: the first field has the focus, Enter saves, Escape cancels.
    <form onSubmit={submit} onKeyDown={(e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); onDone(); } }}
      className="space-y-2 rounded-md border border-zinc-200 p-2" aria-label="Record grader label">
      <div className="flex flex-wrap items-center gap-2">
        {output.type === "score" ? (
          <label className="flex items-center gap-1.5 text-xs text-zinc-600">Score
            <Input type="number" step="any" min={output.min} max={output.max} value={score} onChange={(e) => setScore(e.target.value)} className="h-7 w-24" aria-label="Score" autoFocus />
          </label>
        ) : null}
        {output.type === "category" ? (
          <label className="flex items-center gap-1.5 text-xs text-zinc-600">Category
            <Select value={category} onChange={(e) => setCategory(e.target.value)} className="h-7" aria-label="Category" autoFocus>
              {output.categories.map((c) => <option key={c} value={c}>{c}</option>)}
            </Select>
          </label>
        ) : null}
        {derives(output) ? (
          <span className="flex items-center gap-1.5 text-xs text-zinc-500" role="status" aria-label="Pass or fail">
            {preview === null ? `Pass/fail follows from the ${output.type}.` : <><Badge tone={preview.pass ? "pass" : "fail"}>{preview.pass ? "pass" : "fail"}</Badge>{preview.why}</>}
          </span>
        ) : (
          <label className="flex items-center gap-1.5 text-xs text-zinc-600">Verdict
            <Select value={verdict} onChange={(e) => setVerdict(e.target.value as "" | "pass" | "fail")} className="h-7" aria-label="Verdict" autoFocus={output.type === "passFail"}>
              <option value="">{output.type === "passFail" ? "choose" : "none"}</option>
              <option value="pass">pass</option>
              <option value="fail">fail</option>
            </Select>
          </label>
        )}
      </div>
      <div className="flex gap-2">
        <Button size="sm" type="submit" disabled={save.isPending}>Save</Button>
        <Button size="sm" variant="ghost" onClick={onDone}>Cancel</Button>
        <span className="self-center text-xs text-zinc-500"><kbd>Enter</kbd> saves · <kbd>Esc</kbd> cancels</span>
      </div>
      <FormError error={save.error} />
    </form>
  );
}

/** What the grader's threshold or passing categories make of the value being typed, before it is saved; null: nothing yet. */
function previewOf(output: Output, score: string, category: string): { pass: boolean; why: string } | null {
  if (output.type === "score" && output.passThreshold !== undefined && score !== "" && Number.isFinite(Number(score))) {
    const pass = Number(score) >= output.passThreshold;
    return { pass, why: `${score} ${pass ? "≥" : "<"} ${output.passThreshold}, the grader's threshold` };
  }
  if (output.type === "category" && output.passingCategories !== undefined && category !== "") {
    const pass = output.passingCategories.includes(category);
    return { pass, why: `${category} is ${pass ? "" : "not "}a passing category` };
  }
  return null;
}
