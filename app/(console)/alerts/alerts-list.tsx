"use client";
// The organization's alert rules with their state; admins add and change them (others see the same list).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { useCan } from "../_components/permissions.tsx";
import { AlertDetail } from "./alert-detail.tsx";
import { AlertForm } from "./alert-form.tsx";
import { describeRule, KINDS, type TAlertRule } from "./alert-kinds.ts";

export function AlertsList() {
  const trpc = useTRPC();
  const canManage = useCan("manage-alerts");
  const rules = useQuery(trpc.alerts.list.queryOptions(undefined, { refetchInterval: 15_000 }));
  const [editing, setEditing] = useState<TAlertRule | "new" | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const check = useMutation(trpc.alerts.check.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.alerts.pathKey() }) }));
  return (
    <Card>
      <CardHeader
        title="Rules"
        description="Each rule reads one figure over its window, for one trace function or all. It fires once when the figure crosses its threshold and resolves once when it is back."
        actions={canManage ? (
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" disabled={check.isPending} onClick={() => check.mutate()}>Check now</Button>
            <Button size="sm" onClick={() => setEditing("new")}>Add rule</Button>
          </div>
        ) : null}
      />
      <FormError error={check.error} />
      {rules.isPending ? <LoadingState label="Loading alert rules" /> : rules.isError ? <ErrorState error={rules.error} onRetry={() => rules.refetch()} /> : rules.data.length === 0 ? (
        <EmptyState title="No alert rules yet">{canManage ? "Add a rule to be told when a figure goes wrong." : "An admin can add rules."}</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Alert rules</caption>
            <thead className="border-b border-zinc-100 text-xs text-zinc-500">
              <tr>
                {["Name", "Condition", "Trace function", "State", "Last value", "Checked", ""].map((h, i) => (
                  <th key={i} scope="col" className="px-3 py-2 font-medium">{h}</th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {rules.data.map((r) => (
                <tr key={r.id}>
                  <td className="px-3 py-1.5 font-medium">{r.name}</td>
                  <td className="px-3 py-1.5">{describeRule(r)}</td>
                  <td className="px-3 py-1.5 font-mono text-xs">{r.traceFunctionKey ?? "all"}</td>
                  <td className="px-3 py-1.5">
                    {!r.enabled ? <Badge>Disabled</Badge> : r.state === "firing" ? <Badge tone="fail">Firing</Badge> : <Badge tone="pass">OK</Badge>}
                  </td>
                  <td className="px-3 py-1.5 tabular-nums">{r.lastValue === null ? "—" : KINDS[r.kind].unit(r.lastValue)}</td>
                  <td className="px-3 py-1.5 text-xs text-zinc-500">{r.lastEvaluatedAt ? formatDateTime(r.lastEvaluatedAt) : "not yet"}</td>
                  <td className="px-3 py-1.5 text-right whitespace-nowrap">
                    <Button variant="ghost" size="sm" aria-label={`Details of ${r.name}`} onClick={() => setOpen(r.id)}>Details</Button>
                    {canManage ? <Button variant="ghost" size="sm" aria-label={`Change ${r.name}`} onClick={() => setEditing(r)}>Change</Button> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? <AlertForm key={editing === "new" ? "new" : editing.id} rule={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
      {open ? <AlertDetail id={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}
