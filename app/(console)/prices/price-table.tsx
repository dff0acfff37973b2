"use client";
// The price table: the organization's prices (with their history, restorable) and the shipped defaults.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { PriceForm, type TPriceDraft } from "./price-form.tsx";
import { useCan } from "../_components/permissions.tsx";

type TPrice = RouterOutputs["insight"]["prices"]["prices"][number];

const money = (v: number | null) => (v === null ? "—" : `$${v}`);

export function PriceTable() {
  const trpc = useTRPC();
  const table = useQuery(trpc.insight.prices.queryOptions());
  const [editing, setEditing] = useState<{ draft: TPriceDraft; title: string } | null>(null);
  const [history, setHistory] = useState<TPrice | null>(null);
  const blank: TPriceDraft = { modelPattern: "", provider: null, inputPerMtok: 0, outputPerMtok: 0, cachedInputPerMtok: null, reasoningPerMtok: null, effectiveFrom: "1970-01-01" };
  return (
    <Card>
      <CardHeader
        title="Price table"
        description={table.data ? `Defaults compiled on ${table.data.defaultsCompiledOn} from the providers' price lists: check them, providers change prices. The most specific pattern wins; yours win over a default of the same pattern.` : undefined}
        actions={<Button size="sm" onClick={() => setEditing({ draft: blank, title: "Add a price" })}>Add price</Button>}
      />
      {table.isPending ? <LoadingState label="Loading prices" /> : table.isError ? <ErrorState error={table.error} onRetry={() => table.refetch()} /> : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Model prices in USD per million tokens</caption>
            <thead className="border-b border-zinc-100 text-xs text-zinc-500">
              <tr>
                {["Model pattern", "Provider", "Input", "Output", "Cached input", "Reasoning", "Effective from", "Source", ""].map((h, i) => (
                  <th key={i} scope="col" className="px-3 py-2 font-medium">{h}</th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {table.data.prices.map((p) => (
                <tr key={p.id} className={p.overridden ? "text-zinc-400" : undefined}>
                  <td className="px-3 py-1.5 font-mono text-xs">{p.modelPattern}</td>
                  <td className="px-3 py-1.5">{p.provider ?? "—"}</td>
                  <td className="px-3 py-1.5 tabular-nums">{money(p.inputPerMtok)}</td>
                  <td className="px-3 py-1.5 tabular-nums">{money(p.outputPerMtok)}</td>
                  <td className="px-3 py-1.5 tabular-nums">{money(p.cachedInputPerMtok)}</td>
                  <td className="px-3 py-1.5 tabular-nums">{money(p.reasoningPerMtok)}</td>
                  <td className="px-3 py-1.5">{p.effectiveFrom === "1970-01-01" ? "always" : p.effectiveFrom}</td>
                  <td className="px-3 py-1.5">
                    {p.source === "organization" ? <Badge>Yours · v{p.version}</Badge> : p.overridden ? "default (overridden)" : "default"}
                  </td>
                  <td className="px-3 py-1.5 text-right whitespace-nowrap">
                    {p.source === "organization" ? (
                      <>
                        <Button variant="ghost" size="sm" aria-label={`Change ${p.modelPattern}`} onClick={() => setEditing({ draft: { ...p, id: p.id }, title: `Change ${p.modelPattern}` })}>Change</Button>
                        <Button variant="ghost" size="sm" aria-label={`History of ${p.modelPattern}`} onClick={() => setHistory(p)}>History</Button>
                      </>
                    ) : p.overridden ? null : (
                      <Button variant="ghost" size="sm" aria-label={`Override ${p.modelPattern}`} onClick={() => setEditing({ draft: { ...p, id: undefined }, title: `Override ${p.modelPattern}` })}>Override</Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? <PriceForm key={editing.title} draft={editing.draft} title={editing.title} onClose={() => setEditing(null)} /> : null}
      {history ? <PriceHistory price={history} onClose={() => setHistory(null)} /> : null}
    </Card>
  );
}

function PriceHistory({ price, onClose }: { price: TPrice; onClose: () => void }) {
  const canRestore = useCan("manage-prices");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const versions = useQuery(trpc.insight.priceVersions.queryOptions({ id: price.id }));
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.insight.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.insight.priceVersions.queryKey({ id: price.id }) });
  };
  const restore = useMutation(trpc.insight.restorePrice.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.insight.deletePrice.mutationOptions({ onSuccess: async () => { await refresh(); onClose(); } }));
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={`History of ${price.modelPattern}`} description="Every version, newest first. Restoring writes a new version.">
      <div className="space-y-3 pb-5">
        {versions.isPending ? <LoadingState label="Loading versions" /> : versions.isError ? <ErrorState error={versions.error} /> : (
          <ol className="space-y-2 text-sm">
            {versions.data.map((v) => (
              <li key={v.version} className="flex items-center justify-between gap-2">
                <span>
                  v{v.version}{v.deleted ? " (deleted)" : ""}: in ${v.inputPerMtok}, out ${v.outputPerMtok}
                  <span className="block text-xs text-zinc-500">{formatDateTime(v.changedAt)}{v.supersededAt ? "" : " · current"}</span>
                </span>
                {v.supersededAt && !v.deleted && canRestore ? (
                  <Button variant="secondary" size="sm" disabled={restore.isPending} onClick={() => restore.mutate({ id: price.id, version: v.version })}>Restore v{v.version}</Button>
                ) : null}
              </li>
            ))}
          </ol>
        )}
        <div className="flex justify-between">
          <Button variant="danger" size="sm" disabled={remove.isPending} onClick={() => remove.mutate({ id: price.id })}>Delete price</Button>
          <Button variant="ghost" size="sm" onClick={onClose}>Close</Button>
        </div>
      </div>
    </Dialog>
  );
}
