"use client";
// Datasets: list per trace function and create.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input, Textarea } from "@/components/ui/field.tsx";
import { formatRelative } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { useCan } from "../_components/permissions.tsx";

export function DatasetsList() {
  const canCurate = useCan("curate");
  const trpc = useTRPC();
  const datasets = useQuery(trpc.datasets.list.queryOptions({}));
  const [creating, setCreating] = useState(false);
  if (datasets.isPending) return <LoadingState label="Loading datasets" />;
  if (datasets.isError) return <ErrorState error={datasets.error} onRetry={() => datasets.refetch()} />;
  const groups = new Map<string, typeof datasets.data.datasets>();
  for (const d of datasets.data.datasets) groups.set(d.traceFunctionKey, [...(groups.get(d.traceFunctionKey) ?? []), d]);
  return (
    <div className="space-y-6">
      {canCurate ? <div className="flex justify-end"><Button onClick={() => setCreating(true)}>New dataset</Button></div> : null}
      {groups.size === 0 ? <Card><EmptyState title="No datasets yet">Create one, then add traces to it from its page.</EmptyState></Card> : null}
      {[...groups.entries()].map(([key, list]) => (
        <Card key={key}>
          <CardHeader title={<span className="font-mono">{key}</span>} />
          <ul className="divide-y divide-zinc-100">
            {list.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <div className="min-w-0">
                  <Link href={`/datasets/${d.id}`} className="font-medium text-accent-700 dark:text-accent-300 hover:underline">{d.name}</Link>
                  {d.description ? <p className="truncate text-xs text-zinc-500">{d.description}</p> : null}
                </div>
                <span className="text-xs text-zinc-500">{d.traceCount} traces · {d.graders.length} graders · updated {formatRelative(d.updatedAt)}</span>
              </li>
            ))}
          </ul>
        </Card>
      ))}
      {creating ? <DatasetDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}

export function DatasetDialog({ onClose, dataset }: { onClose: () => void; dataset?: { traceFunctionKey: string; name: string; description: string | null } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ traceFunctionKey: dataset?.traceFunctionKey ?? "", name: dataset?.name ?? "", description: dataset?.description ?? "" });
  const done = async () => { await queryClient.invalidateQueries({ queryKey: trpc.datasets.pathKey() }); onClose(); };
  // "New" never overwrites: an existing name is refused, with a link to that dataset. Edit keeps name and function.
  const create = useMutation(trpc.datasets.create.mutationOptions({ onSuccess: done }));
  const save = useMutation(trpc.datasets.save.mutationOptions({ onSuccess: done }));
  const mutation = dataset ? save : create;
  const conflict = !dataset && create.error?.data?.code === "CONFLICT";
  const existing = useQuery({ ...trpc.datasets.list.queryOptions({ traceFunctionKey: form.traceFunctionKey }), enabled: conflict && form.traceFunctionKey !== "" });
  const existingId = existing.data?.datasets.find((d) => d.name === form.name.trim() || d.name === form.name)?.id;
  const submit = (e: FormEvent) => { e.preventDefault(); mutation.mutate(form); };
  // The recorded trace functions are offered, and a name none of them has is flagged (it is still allowed: a
  // dataset may be made before its function's first trace).
  const keys = useQuery({ ...trpc.traces.functionKeys.queryOptions(), enabled: !dataset });
  const functionListId = useId();
  const typed = form.traceFunctionKey.trim();
  const unknownKey = !dataset && keys.data !== undefined && typed !== "" && !keys.data.includes(typed);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => { create.reset(); setForm((f) => ({ ...f, [k]: e.target.value })); };
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={dataset ? "Edit dataset" : "New dataset"}>
      <form onSubmit={submit} className="space-y-4">
        <Field label="Trace function" error={unknownKey ? `No trace of “${form.traceFunctionKey.trim()}” has been recorded. Check the spelling: a dataset only holds traces of its function.` : null}
          hint={keys.data?.length ? "Pick one of the recorded trace functions." : null}>
          {(id) => <Input id={id} required disabled={Boolean(dataset)} value={form.traceFunctionKey} onChange={set("traceFunctionKey")} placeholder="answer-question" list={functionListId} />}
        </Field>
        <datalist id={functionListId}>{(keys.data ?? []).map((k) => <option key={k} value={k} />)}</datalist>
        <Field label="Dataset name">{(id) => <Input id={id} required disabled={Boolean(dataset)} value={form.name} onChange={set("name")} />}</Field>
        <Field label="Description">{(id) => <Textarea id={id} value={form.description} onChange={set("description")} />}</Field>
        {conflict ? (
          <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
            {create.error?.message} Choose another name{existingId ? <>, or <Link className="font-medium underline" href={`/datasets/${existingId}`} onClick={onClose}>open the existing dataset</Link></> : null}.
          </p>
        ) : <FormError error={mutation.error} />}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>Cancel</Button>
          <Button type="submit" disabled={mutation.isPending}>{dataset ? "Save" : "Create dataset"}</Button>
        </div>
      </form>
    </Dialog>
  );
}
