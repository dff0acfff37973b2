"use client";
// Deleting traces from the console (docs/operations.md, "Deleting data"): the list's filtered delete counts first
// and deletes only that count, confirmed; the trace page deletes or pins one trace.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { formatNumber } from "@/components/ui/format.ts";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterInputs } from "@/components/trpc/types.ts";

type TFilter = RouterInputs["lifecycle"]["deleteTraces"]["filter"];

/** "Delete matching…": counts what the filters match, then deletes that many once confirmed. */
export function DeleteMatchingButton({ filter }: { filter: TFilter }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [count, setCount] = useState<number | null>(null);
  const run = useMutation(trpc.lifecycle.deleteTraces.mutationOptions());
  const close = () => {
    setCount(null);
    run.reset();
  };
  const start = () => run.mutate({ filter, dryRun: true }, { onSuccess: (r) => setCount(r.count) });
  const confirm = () =>
    run.mutate({ filter, confirmCount: count! }, {
      onSuccess: () => {
        close();
        void queryClient.invalidateQueries();
      },
    });
  return (
    <>
      <Button variant="danger" onClick={start} disabled={run.isPending}>Delete matching…</Button>
      <Dialog open={count !== null} onOpenChange={(open) => (open ? undefined : close())} title="Delete traces">
        <div className="space-y-4">
          <p className="text-sm text-zinc-700">
            {count === 0 ? "No trace matches these filters." : `Delete the ${formatNumber(count ?? 0)} trace${count === 1 ? "" : "s"} matching these filters, with their spans, labels and assertions? This cannot be undone.`}
          </p>
          <FormError error={run.error} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>Cancel</Button>
            {count ? <Button variant="danger" onClick={confirm} disabled={run.isPending}>Delete {formatNumber(count)} trace{count === 1 ? "" : "s"}</Button> : null}
          </div>
        </div>
      </Dialog>
    </>
  );
}

/** The trace page's pin (the retention sweep keeps a pinned trace) and delete. */
export function TraceLifecycleActions({ traceId }: { traceId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const pin = useQuery(trpc.lifecycle.pin.queryOptions({ traceId }));
  const setPin = useMutation(trpc.lifecycle.setPin.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.lifecycle.pin.queryKey({ traceId }), data) }));
  const remove = useMutation(trpc.lifecycle.deleteTrace.mutationOptions({
    onSuccess: () => {
      void queryClient.invalidateQueries();
      router.push("/traces");
    },
  }));
  const pinned = pin.data?.pinned ?? false;
  return (
    <>
      <Button variant="secondary" size="sm" aria-pressed={pinned} disabled={!pin.data || setPin.isPending} onClick={() => setPin.mutate({ traceId, pinned: !pinned })}
        title="A pinned trace is never removed by the retention period">
        {pinned ? "Unpin" : "Pin"}
      </Button>
      <Button variant="danger" size="sm" disabled={remove.isPending}
        onClick={() => { if (window.confirm("Delete this trace with its spans, labels and assertions? This cannot be undone.")) remove.mutate({ id: traceId }); }}>
        Delete trace
      </Button>
    </>
  );
}
