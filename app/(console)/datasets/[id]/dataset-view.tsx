"use client";
// One dataset: its traces (add from the trace function's recent traces, remove), its
// graders (assign, remove) and a grader re-run with a progress bar polled until it finishes.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { DatasetDialog } from "../datasets-list.tsx";

type Data = RouterOutputs["datasets"]["get"];

export function DatasetView({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.datasets.get.queryOptions({ id }));
  const [editing, setEditing] = useState(false);
  if (query.isPending) return <LoadingState label="Loading dataset" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { dataset } = query.data;
  return (
    <>
      <p className="mb-2 text-xs"><Link href="/datasets" className="text-accent-700 hover:underline">← Datasets</Link></p>
      <PageHeader title={dataset.name} description={<>{dataset.description ?? "No description."} <span className="font-mono">({dataset.traceFunctionKey})</span></>}
        actions={<Button variant="secondary" onClick={() => setEditing(true)}>Edit</Button>} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Traces data={query.data} />
        <div className="space-y-6">
          <Graders data={query.data} />
          <Rerun datasetId={dataset.id} hasGraders={dataset.graders.length > 0} />
        </div>
      </div>
      {editing ? <DatasetDialog dataset={dataset} onClose={() => setEditing(false)} /> : null}
    </>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.datasets.pathKey() });
}

function Traces({ data }: { data: Data }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const candidates = useQuery(trpc.traces.list.queryOptions({ traceFunctionKey: data.dataset.traceFunctionKey, limit: 50 }));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const add = useMutation(trpc.datasets.addTraces.mutationOptions({ onSuccess: () => { setSelected(new Set()); return refresh(); } }));
  const remove = useMutation(trpc.datasets.removeTraces.mutationOptions({ onSuccess: refresh }));
  const members = new Set(data.traceIds);
  const toggle = (id: string) => setSelected((s) => { const n = new Set(s); if (n.has(id)) n.delete(id); else n.add(id); return n; });
  return (
    <Card aria-label="Traces of the dataset">
      <CardHeader title={`Traces (${data.traceIds.length})`} description="Tick recent traces of this trace function to add them."
        actions={<Button size="sm" disabled={selected.size === 0 || add.isPending} onClick={() => add.mutate({ id: data.dataset.id, traceIds: [...selected] })}>Add selected ({selected.size})</Button>} />
      <FormError error={add.error ?? remove.error} />
      <ul className="max-h-[28rem] divide-y divide-zinc-100 overflow-y-auto">
        {(candidates.data?.traces ?? []).map((t) => {
          const title = t.name || t.traceFunctionKey || t.id;
          return (
            <li key={t.id} className="flex items-center justify-between gap-2 px-4 py-2">
              <label className="flex min-w-0 items-center gap-2">
                <input type="checkbox" disabled={members.has(t.id)} checked={members.has(t.id) || selected.has(t.id)} onChange={() => toggle(t.id)} aria-label={`Select ${title} (${t.id.slice(0, 8)})`} />
                <Link href={`/traces/${t.id}`} className="truncate hover:underline">{title}</Link>
                <span className="font-mono text-xs text-zinc-400">{t.id.slice(0, 8)}</span>
              </label>
              {members.has(t.id) ? <Button variant="ghost" size="sm" onClick={() => remove.mutate({ id: data.dataset.id, traceIds: [t.id] })} aria-label={`Remove ${title} (${t.id.slice(0, 8)}) from the dataset`}>Remove</Button> : null}
            </li>
          );
        })}
        {candidates.data?.traces.length === 0 ? <li className="px-4 py-3 text-sm text-zinc-500">No traces of this trace function yet.</li> : null}
      </ul>
    </Card>
  );
}

function Graders({ data }: { data: Data }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const graders = useQuery(trpc.graders.list.queryOptions({ traceFunctionKey: data.dataset.traceFunctionKey }));
  const add = useMutation(trpc.datasets.addGraders.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.datasets.removeGraders.mutationOptions({ onSuccess: refresh }));
  const assigned = new Set(data.dataset.graders.map((g) => g.id));
  const active = (graders.data ?? []).filter((g) => g.status === "active");
  return (
    <Card aria-label="Graders of the dataset">
      <CardHeader title="Graders" description="Active graders of this trace function." />
      <FormError error={add.error ?? remove.error} />
      <ul className="divide-y divide-zinc-100">
        {active.map((g) => (
          <li key={g.id} className="flex items-center justify-between px-4 py-2">
            <span>{g.name}</span>
            {assigned.has(g.id)
              ? <Button variant="ghost" size="sm" onClick={() => remove.mutate({ id: data.dataset.id, graderIds: [g.id] })} aria-label={`Unassign ${g.name}`}>Unassign</Button>
              : <Button variant="secondary" size="sm" onClick={() => add.mutate({ id: data.dataset.id, graderIds: [g.id] })} aria-label={`Assign ${g.name}`}>Assign</Button>}
          </li>
        ))}
        {active.length === 0 ? <li className="px-4 py-3 text-sm text-zinc-500">No active graders for this trace function. Create one under <Link className="text-accent-700 underline" href="/graders">Graders</Link>.</li> : null}
      </ul>
    </Card>
  );
}

function Rerun({ datasetId, hasGraders }: { datasetId: string; hasGraders: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [runId, setRunId] = useState<string | undefined>();
  const run = useQuery({
    ...trpc.datasets.rerun.queryOptions({ id: datasetId, runId }),
    // Poll while the run is queued or running.
    refetchInterval: (q) => (q.state.data?.run && ["pending", "running"].includes(q.state.data.run.status) ? 1000 : false),
  });
  const start = useMutation(trpc.datasets.startRerun.mutationOptions({
    onSuccess: (r) => { setRunId(r.run.id); return queryClient.invalidateQueries({ queryKey: trpc.datasets.rerun.queryKey() }); },
  }));
  const r = run.data?.run;
  const done = r?.status === "completed" ? r.result?.tracesGraded ?? 0 : r?.progress?.completedTraces ?? 0;
  const total = r?.status === "completed" ? r.result?.tracesGraded ?? 0 : r?.progress?.totalTraces ?? 0;
  const pct = r?.status === "completed" ? 100 : total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <Card aria-label="Grader re-run">
      <CardHeader title="Re-run graders" description="Grades every trace of the dataset with its graders."
        actions={<Button size="sm" disabled={!hasGraders || start.isPending || r?.status === "running" || r?.status === "pending"} onClick={() => start.mutate({ id: datasetId })}>Re-run graders</Button>} />
      <div className="space-y-2 px-4 py-3">
        <FormError error={start.error} />
        {r ? (
          <>
            <div role="progressbar" aria-label="Re-run progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} className="h-2 rounded bg-zinc-100">
              <div className={r.status === "errored" ? "h-2 rounded bg-red-500" : "h-2 rounded bg-accent-600 transition-all"} style={{ width: `${pct}%` }} />
            </div>
            <p className="text-sm text-zinc-700" aria-live="polite">
              Status: <span className="font-medium">{r.status}</span>
              {r.status === "completed" ? ` — ${r.result?.tracesGraded ?? 0} traces graded by ${r.result?.gradersRun ?? 0} graders` : r.progress ? ` — ${done} of ${total} traces` : ""}
              {r.error ? ` — ${r.error}` : ""}
            </p>
          </>
        ) : <p className="text-sm text-zinc-500">{hasGraders ? "No re-run yet." : "Assign a grader first."}</p>}
      </div>
    </Card>
  );
}
