"use client";
// "Add to dataset" for one trace (the trace page) or a selection (the trace list): lists the datasets of the
// traces' trace functions and adds to the chosen one, saying what was added, already there, or skipped.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { useCan } from "./permissions.tsx";

export interface TraceRef {
  id: string;
  traceFunctionKey: string | null;
}

/** The button and its dialog. */
export function AddToDatasetButton({ traces, size = "sm", label }: { traces: TraceRef[]; size?: "sm" | "md"; label?: string }) {
  const canCurate = useCan("curate");
  const [open, setOpen] = useState(false);
  if (!canCurate) return null;
  return (
    <>
      <Button variant="secondary" size={size} disabled={traces.length === 0} onClick={() => setOpen(true)}>
        {label ?? "Add to dataset"}
      </Button>
      {open ? <AddToDatasetDialog traces={traces} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function AddToDatasetDialog({ traces, onClose }: { traces: TraceRef[]; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = new Set(traces.map((t) => t.traceFunctionKey).filter((k): k is string => Boolean(k)));
  const datasets = useQuery(trpc.datasets.list.queryOptions({}));
  const ids = traces.map((t) => t.id);
  const memberships = useQuery(trpc.datasets.membershipsOf.queryOptions({ traceIds: ids }));
  const add = useMutation(trpc.datasets.addTraces.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.datasets.pathKey() }) }));
  const [target, setTarget] = useState<string | null>(null);
  const candidates = (datasets.data?.datasets ?? []).filter((d) => keys.has(d.traceFunctionKey));
  const result = add.data;
  const one = traces.length === 1;
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={one ? "Add to dataset" : `Add ${traces.length} traces to a dataset`}
      description="Datasets of the same trace function.">
      {datasets.isPending ? <LoadingState label="Loading datasets" /> : datasets.isError ? <ErrorState error={datasets.error} /> : (
        <div className="space-y-3">
          {candidates.length === 0 ? (
            <p className="text-sm text-zinc-600">
              No dataset for {[...keys].map((k) => <span key={k} className="font-mono">{k} </span>)}yet. Create one under{" "}
              <Link className="font-medium text-accent-700 dark:text-accent-300 underline" href="/datasets">Datasets</Link>.
            </p>
          ) : (
            <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200" aria-label="Datasets">
              {candidates.map((d) => {
                const inIt = ids.filter((id) => memberships.data?.[id]?.includes(d.id)).length;
                const all = inIt === ids.length;
                return (
                  <li key={d.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
                    <div className="min-w-0">
                      <Link href={`/datasets/${d.id}`} className="block truncate font-medium text-accent-700 dark:text-accent-300 hover:underline">{d.name}</Link>
                      <span className="font-mono text-xs text-zinc-500">{d.traceFunctionKey}</span>
                      <span className="text-xs text-zinc-500"> · {d.traceCount} traces{inIt > 0 && !one ? ` · ${inIt} of these already in it` : ""}</span>
                    </div>
                    {all ? <span className="text-xs text-zinc-600">{one ? "Already in it" : "All already in it"}</span> : (
                      <Button size="sm" disabled={add.isPending} onClick={() => { setTarget(d.name); add.mutate({ id: d.id, traceIds: ids }); }}
                        aria-label={`Add to ${d.name}`}>Add</Button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          <FormError error={add.error} />
          {result ? (
            <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
              {describe(result, target)}
            </p>
          ) : null}
          <div className="flex justify-end"><Button variant="secondary" onClick={onClose}>Done</Button></div>
        </div>
      )}
    </Dialog>
  );
}

function describe(r: { addedTraceIds: string[]; alreadyPresentTraceIds: string[]; skippedTraceIds: string[] }, target: string | null): string {
  const parts = [`Added ${r.addedTraceIds.length} to ${target ?? "the dataset"}`];
  if (r.alreadyPresentTraceIds.length) parts.push(`${r.alreadyPresentTraceIds.length} already in it`);
  if (r.skippedTraceIds.length) parts.push(`${r.skippedTraceIds.length} skipped (another trace function)`);
  return `${parts.join(", ")}.`;
}
