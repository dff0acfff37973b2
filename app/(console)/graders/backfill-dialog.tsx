"use client";
// A grader's backfill (docs/graders.md, "Online evaluation"): pick a past range, read the estimate (how many
// traces it will grade with its sample and filter, and what the judge's tokens cost at the model's price, or
// that the model is unpriced), then start it; the dialog follows its progress and can cancel it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { formatDateTime, formatNumber, formatUsd } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import type { Grader } from "./graders-list.tsx";

type Estimate = RouterOutputs["graderBackfills"]["estimate"]["estimate"];
type Backfill = NonNullable<RouterOutputs["graderBackfills"]["get"]["backfill"]>;

/** A datetime-local value (the browser's time zone) for a time. */
const local = (ms: number) => { const d = new Date(ms); d.setMinutes(d.getMinutes() - d.getTimezoneOffset()); return d.toISOString().slice(0, 16); };
const toIso = (value: string) => { const d = new Date(value); return Number.isNaN(d.getTime()) ? null : d.toISOString(); };

export function BackfillDialog({ grader, onClose }: { grader: Grader; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [range, setRange] = useState({ from: local(Date.now() - 7 * 86_400_000), to: local(Date.now()) });
  const from = toIso(range.from);
  const to = toIso(range.to);
  const valid = from !== null && to !== null && from < to;
  const latest = useQuery({
    ...trpc.graderBackfills.get.queryOptions({ graderId: grader.id }),
    refetchInterval: (q) => (q.state.data?.backfill && ["pending", "running"].includes(q.state.data.backfill.status) ? 1000 : false),
  });
  const estimate = useQuery({ ...trpc.graderBackfills.estimate.queryOptions({ graderId: grader.id, from: from!, to: to! }), enabled: valid });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.graderBackfills.get.queryKey({ graderId: grader.id }) });
  const start = useMutation(trpc.graderBackfills.start.mutationOptions({ onSuccess: refresh }));
  const cancel = useMutation(trpc.graderBackfills.cancel.mutationOptions({ onSuccess: refresh }));
  const active = latest.data?.backfill && ["pending", "running"].includes(latest.data.backfill.status) ? latest.data.backfill : null;
  // When a backfill ends, what is left to grade changed: read the estimate again.
  const status = latest.data?.backfill?.status;
  useEffect(() => {
    if (status && !["pending", "running"].includes(status)) void queryClient.invalidateQueries({ queryKey: trpc.graderBackfills.estimate.queryKey() });
  }, [status, queryClient, trpc]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) start.mutate({ graderId: grader.id, from: from!, to: to! });
  };
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={`Backfill ${grader.name}`}
      description="Grade past traces of this function with this grader, with its sample rate and filter. Traces already graded at its current version are left out.">
      <form onSubmit={submit} className="space-y-4">
        {latest.isPending ? <LoadingState label="Loading backfills" /> : latest.isError ? <ErrorState error={latest.error} onRetry={() => latest.refetch()} /> :
          latest.data.backfill ? <BackfillProgress backfill={latest.data.backfill} /> : null}
        {active ? null : (
          <>
            <div className="grid grid-cols-2 gap-3">
              <Field label="From">{(id) => <Input id={id} type="datetime-local" required value={range.from} onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))} />}</Field>
              <Field label="To" error={from && to && !valid ? "must be after From" : null}>{(id) => <Input id={id} type="datetime-local" required value={range.to} onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))} />}</Field>
            </div>
            {!valid ? null : estimate.isPending ? <LoadingState label="Estimating" /> : estimate.isError ? <ErrorState error={estimate.error} onRetry={() => estimate.refetch()} /> : <EstimateFacts estimate={estimate.data.estimate} />}
          </>
        )}
        <FormError error={start.error ?? cancel.error} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>Close</Button>
          {active ? (
            <Button variant="danger" disabled={cancel.isPending} onClick={() => cancel.mutate({ graderId: grader.id, runId: active.id })}>Cancel backfill</Button>
          ) : (
            <Button type="submit" disabled={!valid || start.isPending || !estimate.data || estimate.data.estimate.traces === 0}>
              {estimate.data ? `Grade ${formatNumber(estimate.data.estimate.traces)} traces` : "Start backfill"}
            </Button>
          )}
        </div>
      </form>
    </Dialog>
  );
}

function EstimateFacts({ estimate: e }: { estimate: Estimate }) {
  return (
    <div aria-label="Estimate" className="space-y-1 rounded-md border border-zinc-200 px-3 py-2 text-sm text-zinc-700">
      <p><span className="font-medium text-zinc-900">{formatNumber(e.traces)}</span> traces to grade at version {e.graderVersion}
        {e.sampleRate < 100 ? ` (a ${e.sampleRate} % sample)` : ""}{e.alreadyGraded ? `; ${formatNumber(e.alreadyGraded)} already graded at this version are left out` : ""}.</p>
      {e.judge === null ? <p>A rule grader: no model calls, no cost.</p> : e.judge.priced ? (
        <p>About {formatNumber(e.judge.inputTokens)} input and {formatNumber(e.judge.outputTokens)} output tokens of {e.judge.model}: about <span className="font-medium text-zinc-900">{formatUsd(e.judge.costUsd)}</span>.</p>
      ) : (
        <p role="alert" className="rounded-md bg-amber-50 px-2 py-1 text-amber-800">
          About {formatNumber(e.judge.inputTokens)} input and {formatNumber(e.judge.outputTokens)} output tokens of {e.judge.model}, which is unpriced: no price in the price table names it, so the cost is unknown.
        </p>
      )}
    </div>
  );
}

function BackfillProgress({ backfill: b }: { backfill: Backfill }) {
  const tone = b.status === "completed" ? "accent" : b.status === "errored" || b.status === "cancelled" ? "warn" : "neutral";
  return (
    <div aria-label="Latest backfill" className="space-y-1 rounded-md border border-zinc-200 px-3 py-2 text-sm text-zinc-700">
      <p className="flex items-center gap-2"><span className="font-medium text-zinc-900">Latest backfill</span> <Badge tone={tone}>{b.status}</Badge></p>
      <p>{formatDateTime(b.from)} – {formatDateTime(b.to)} · version {b.graderVersion}</p>
      <p><span className="font-medium text-zinc-900">{formatNumber(b.progress.done)}</span> of {formatNumber(b.progress.total)} traces done</p>
      <progress className="h-2 w-full" max={Math.max(b.progress.total, 1)} value={b.progress.done} aria-label="Backfill progress" />
      {b.error ? <p className="text-red-700 dark:text-red-300">{b.error}</p> : null}
    </div>
  );
}
