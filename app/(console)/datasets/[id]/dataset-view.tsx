"use client";
// One dataset: its member traces a page at a time (remove), adding traces found by search (any age), its
// graders (assign, remove) and a grader re-run with a progress bar polled until it finishes.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Input } from "@/components/ui/field.tsx";
import { formatRelative } from "@/components/ui/format.ts";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { DatasetDialog } from "../datasets-list.tsx";
import { ReplayCard } from "../../_components/replay-card.tsx";
import { RerunResults } from "./rerun-results.tsx";
import { InputPreview } from "../../_components/input-preview.tsx";
import { useCan } from "../../_components/permissions.tsx";

type Data = RouterOutputs["datasets"]["get"];

/** Deletes the dataset (its traces stay), confirmed first. */
function DeleteDatasetButton({ id, name }: { id: string; name: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.lifecycle.deleteDataset.mutationOptions({
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.datasets.list.queryKey() });
      router.push("/datasets");
    },
  }));
  return (
    <Button variant="danger" disabled={remove.isPending}
      onClick={() => { if (window.confirm(`Delete dataset "${name}"? Its traces are kept.`)) remove.mutate({ id }); }}>
      Delete dataset
    </Button>
  );
}

export function DatasetView({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.datasets.get.queryOptions({ id }));
  const [editing, setEditing] = useState(false);
  const canCurate = useCan("curate");
  const canDelete = useCan("delete-data");
  if (query.isPending) return <LoadingState label="Loading dataset" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { dataset } = query.data;
  return (
    <>
      <p className="mb-2 text-xs"><Link href="/datasets" className="text-accent-700 dark:text-accent-300 hover:underline">← Datasets</Link></p>
      <PageHeader title={dataset.name} description={<>{dataset.description ?? "No description."} <span className="font-mono">({dataset.traceFunctionKey})</span></>}
        actions={<>{canCurate ? <Button variant="secondary" onClick={() => setEditing(true)}>Edit</Button> : null}{canDelete ? <DeleteDatasetButton id={dataset.id} name={dataset.name} /> : null}</>} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <div className="space-y-6">
          <Members dataset={dataset} />
          {canCurate ? <AddBySearch dataset={dataset} /> : null}
        </div>
        <div className="space-y-6">
          <Graders data={query.data} />
          <Rerun datasetId={dataset.id} hasGraders={dataset.graders.length > 0} />
          <ReplayCard title="Replay this dataset" selection={{ datasetId: dataset.id }} traceFunctionKey={dataset.traceFunctionKey} />
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

type Dataset = Data["dataset"];
const PAGE = 25;

function Members({ dataset }: { dataset: Dataset }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [offset, setOffset] = useState(0);
  const members = useQuery(trpc.datasets.members.queryOptions({ id: dataset.id, offset, limit: PAGE }));
  const remove = useMutation(trpc.datasets.removeTraces.mutationOptions({ onSuccess: refresh }));
  const canCurate = useCan("curate");
  const total = members.data?.total ?? dataset.traceCount;
  // Removing the last member of the last page steps back a page.
  if (members.data && members.data.members.length === 0 && offset > 0) setOffset(Math.max(0, offset - PAGE));
  return (
    <Card aria-label="Traces of the dataset">
      <CardHeader title={`Traces (${total})`} description="Most recently added first." />
      <FormError error={remove.error} />
      {members.isPending ? <LoadingState label="Loading traces" /> : members.isError ? <ErrorState error={members.error} onRetry={() => members.refetch()} /> : (
        <ul className="divide-y divide-zinc-100">
          {members.data.members.map(({ traceId, addedAt, trace, preview }) => {
            const title = trace ? trace.name || trace.traceFunctionKey || traceId : "Trace no longer stored";
            return (
              <li key={traceId} aria-label={title} className="flex items-center justify-between gap-2 px-4 py-2">
                <div className="min-w-0">
                  <Link href={`/traces/${traceId}`} className="block truncate font-medium text-accent-700 dark:text-accent-300 hover:underline">{title}</Link>
                  <InputPreview input={preview?.input} />
                  <span className="font-mono text-xs text-zinc-500">{traceId.slice(0, 8)}</span>
                  <span className="text-xs text-zinc-500"> · added {formatRelative(addedAt)}</span>
                </div>
                {canCurate ? <Button variant="ghost" size="sm" disabled={remove.isPending} onClick={() => remove.mutate({ id: dataset.id, traceIds: [traceId] })}
                  aria-label={`Remove ${title} (${traceId.slice(0, 8)}) from the dataset`}>Remove</Button> : null}
              </li>
            );
          })}
          {members.data.members.length === 0 ? <li className="px-4 py-3 text-sm text-zinc-600">No traces yet. Find some below, or use “Add to dataset” on a trace or in the trace list.</li> : null}
        </ul>
      )}
      {total > PAGE ? (
        <nav aria-label="Dataset pages" className="flex items-center justify-end gap-2 border-t border-zinc-100 px-4 py-2 text-xs text-zinc-600">
          <span>{offset + 1}–{Math.min(offset + PAGE, total)} of {total}</span>
          <Button variant="secondary" size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</Button>
          <Button variant="secondary" size="sm" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>Next</Button>
        </nav>
      ) : null}
    </Card>
  );
}

/** Finds traces of the dataset's trace function by title, of any age (the trace list's search), to add them. */
function AddBySearch({ dataset }: { dataset: Dataset }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [text, setText] = useState("");
  const [search, setSearch] = useState<string | null>(null);
  const found = useQuery({ ...trpc.traces.list.queryOptions({ traceFunctionKey: dataset.traceFunctionKey, search: search || undefined, limit: 10 }), enabled: search !== null });
  const ids = found.data?.traces.map((t) => t.id) ?? [];
  const memberships = useQuery({ ...trpc.datasets.membershipsOf.queryOptions({ traceIds: ids }), enabled: ids.length > 0 });
  const add = useMutation(trpc.datasets.addTraces.mutationOptions({ onSuccess: refresh }));
  const submit = (e: FormEvent) => { e.preventDefault(); setSearch(text.trim()); };
  return (
    <Card aria-label="Add traces">
      <CardHeader title="Add traces" description={<>Search the traces of <span className="font-mono">{dataset.traceFunctionKey}</span> by title, of any age.</>} />
      <form onSubmit={submit} role="search" aria-label="Find traces to add" className="flex gap-2 px-4 py-3">
        <Input aria-label="Trace title" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Title contains… (empty: newest)" />
        <Button type="submit" variant="secondary">Search</Button>
      </form>
      <FormError error={add.error} />
      {search === null ? null : found.isPending ? <LoadingState label="Searching" /> : found.isError ? <ErrorState error={found.error} /> : (
        <ul className="divide-y divide-zinc-100 border-t border-zinc-100">
          {found.data.traces.map((t) => {
            const title = t.name || t.traceFunctionKey || t.id;
            const member = memberships.data?.[t.id]?.includes(dataset.id) ?? false;
            return (
              <li key={t.id} aria-label={title} className="flex items-center justify-between gap-2 px-4 py-2">
                <div className="min-w-0">
                  <Link href={`/traces/${t.id}`} className="block truncate hover:underline">{title}</Link>
                  <InputPreview input={t.preview?.input} />
                  <span className="font-mono text-xs text-zinc-500">{t.id.slice(0, 8)}</span>
                  <span className="text-xs text-zinc-500"> · {formatRelative(t.startedAt)}</span>
                </div>
                {member ? <span className="text-xs text-zinc-600">In the dataset</span> : (
                  <Button variant="secondary" size="sm" disabled={add.isPending} onClick={() => add.mutate({ id: dataset.id, traceIds: [t.id] })}
                    aria-label={`Add ${title} (${t.id.slice(0, 8)}) to the dataset`}>Add</Button>
                )}
              </li>
            );
          })}
          {found.data.traces.length === 0 ? <li className="px-4 py-3 text-sm text-zinc-600">No trace of this function matches.</li> : null}
        </ul>
      )}
    </Card>
  );
}

function Graders({ data }: { data: Data }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const graders = useQuery(trpc.graders.list.queryOptions({ traceFunctionKey: data.dataset.traceFunctionKey }));
  const add = useMutation(trpc.datasets.addGraders.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.datasets.removeGraders.mutationOptions({ onSuccess: refresh }));
  const canCurate = useCan("curate");
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
            {!canCurate ? (assigned.has(g.id) ? <span className="text-xs text-zinc-600">Assigned</span> : null) : assigned.has(g.id)
              ? <Button variant="ghost" size="sm" onClick={() => remove.mutate({ id: data.dataset.id, graderIds: [g.id] })} aria-label={`Unassign ${g.name}`}>Unassign</Button>
              : <Button variant="secondary" size="sm" onClick={() => add.mutate({ id: data.dataset.id, graderIds: [g.id] })} aria-label={`Assign ${g.name}`}>Assign</Button>}
          </li>
        ))}
        {active.length === 0 ? <li className="px-4 py-3 text-sm text-zinc-500">No active graders for this trace function. Create one under <Link className="text-accent-700 dark:text-accent-300 underline" href="/graders">Graders</Link>.</li> : null}
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
  const canReplay = useCan("replay");
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
        actions={canReplay && <Button size="sm" disabled={!hasGraders || start.isPending || r?.status === "running" || r?.status === "pending"} onClick={() => start.mutate({ id: datasetId })}>Re-run graders</Button>} />
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
            <RerunResults results={run.data?.results ?? []} />
          </>
        ) : <p className="text-sm text-zinc-500">{hasGraders ? "No re-run yet." : "Assign a grader first."}</p>}
      </div>
    </Card>
  );
}
