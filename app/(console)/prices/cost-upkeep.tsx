"use client";
// Spans no price matched (last 30 days) and recomputing costs over a range after a price change.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { Link } from "@/components/ui/link.tsx";
import { formatDateTime, formatNumber } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

const DAY = 86_400_000;

export function CostUpkeep() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [window] = useState(() => ({ from: new Date(Date.now() - 30 * DAY), to: new Date(Date.now() + 60_000) }));
  const unpriced = useQuery(trpc.insight.unpriced.queryOptions(window));
  const recomputes = useQuery({
    ...trpc.insight.recomputes.queryOptions(),
    refetchInterval: (q) => (q.state.data?.some((r) => r.status === "queued" || r.status === "running") ? 1000 : false),
  });
  const start = useMutation(trpc.insight.recompute.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.insight.recomputes.queryKey() }) }));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const day = (name: string) => new Date(`${String(f.get(name))}T00:00:00`).toISOString();
    start.mutate({ from: day("from"), to: new Date(Date.parse(day("to")) + DAY).toISOString() });
  };
  const today = new Date().toISOString().slice(0, 10);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader title="Unpriced models" description="Spans of the last 30 days whose model no price matches: they are not in any cost until a price matches and their range is recomputed." />
        <div className="px-4 pb-4">
          {unpriced.isPending ? <LoadingState label="Loading unpriced spans" /> : unpriced.isError ? <ErrorState error={unpriced.error} /> : unpriced.data.models.length === 0 ? (
            <p className="text-sm text-zinc-600">Every span with tokens has a price.</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-zinc-500"><tr><th scope="col" className="py-1 font-medium">Model</th><th scope="col" className="py-1 font-medium">Spans</th><th scope="col" className="py-1 font-medium">Last seen</th><th scope="col" className="py-1 font-medium">Price now</th></tr></thead>
              <tbody className="divide-y divide-zinc-100">
                {unpriced.data.models.map((m) => (
                  <tr key={m.model}>
                    <td className="py-1 font-mono text-xs"><Link href={`/traces?model=${encodeURIComponent(m.model)}`} className="text-accent-700 hover:underline dark:text-accent-300">{m.model}</Link></td>
                    <td className="py-1 tabular-nums">{formatNumber(m.spans)} in {formatNumber(m.traces)} traces</td>
                    <td className="py-1">{formatDateTime(m.lastSeen)}</td>
                    <td className="py-1">{m.matchesNow ? "matches: recompute" : "none"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </Card>
      <Card>
        <CardHeader title="Recompute costs" description="After a price change, recompute the costs of the traces that started in a range, in the background." />
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3 px-4 pb-3">
          <Field label="From">{(id) => <Input id={id} name="from" type="date" required defaultValue={new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10)} />}</Field>
          <Field label="To (inclusive)">{(id) => <Input id={id} name="to" type="date" required defaultValue={today} />}</Field>
          <Button type="submit" disabled={start.isPending}>Recompute</Button>
        </form>
        <div className="px-4 pb-4">
          <FormError error={start.error} />
          {recomputes.data && recomputes.data.length > 0 ? (
            <ul className="space-y-1 text-sm" aria-label="Recomputes">
              {recomputes.data.slice(0, 5).map((r) => (
                <li key={r.id} className="flex flex-wrap justify-between gap-2">
                  <span>{formatDateTime(r.from)} → {formatDateTime(r.to)}</span>
                  <span className="tabular-nums text-zinc-600">
                    {r.status}: {formatNumber(r.tracesDone)} / {formatNumber(r.tracesTotal)} traces{r.status === "done" ? `, ${formatNumber(r.spansPriced)} spans priced, ${formatNumber(r.spansUnpriced)} unpriced` : ""}
                    {r.error ? ` (${r.error})` : ""}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </Card>
    </div>
  );
}
