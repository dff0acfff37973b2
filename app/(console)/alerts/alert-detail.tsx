"use client";
// A rule's events, delivery log and versions (restorable by those who may manage alerts).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { useCan } from "../_components/permissions.tsx";
import { describeRule, KINDS } from "./alert-kinds.ts";

const th = "px-2 py-1.5 font-medium";
const td = "px-2 py-1.5";

export function AlertDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canManage = useCan("manage-alerts");
  const detail = useQuery(trpc.alerts.get.queryOptions({ id }, { refetchInterval: 5_000 }));
  const restore = useMutation(trpc.alerts.restore.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.alerts.pathKey() }) }));
  const d = detail.data;
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={d ? d.rule.name : "Alert rule"} description={d ? `${describeRule(d.rule)} · ${d.rule.webhookUrl}` : undefined}>
      <div className="max-h-[70vh] space-y-5 overflow-y-auto pb-5 text-sm">
        {detail.isPending ? <LoadingState label="Loading the rule" /> : detail.isError ? <ErrorState error={detail.error} /> : (
          <>
            <section aria-label="Events">
              <h3 className="mb-1 font-medium">Events</h3>
              {d!.events.length === 0 ? <p className="text-zinc-500">Not fired yet.</p> : (
                <ul className="space-y-1">
                  {d!.events.map((e) => (
                    <li key={e.id} className="flex items-center gap-2">
                      <Badge tone={e.kind === "firing" ? "fail" : "pass"}>{e.kind === "firing" ? "Fired" : "Resolved"}</Badge>
                      <span>episode {e.episode} · {e.value === null ? "—" : KINDS[d!.rule.kind].unit(e.value)} · {formatDateTime(e.at)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-label="Delivery log">
              <h3 className="mb-1 font-medium">Delivery log</h3>
              {d!.deliveries.length === 0 ? <p className="text-zinc-500">No deliveries yet.</p> : (
                <div className="overflow-x-auto">
                <table className="w-full text-left">
                  <caption className="sr-only">Webhook delivery attempts, newest first</caption>
                  <thead className="border-b border-zinc-100 text-xs text-zinc-500">
                    <tr><th scope="col" className={th}>When</th><th scope="col" className={th}>Attempt</th><th scope="col" className={th}>Status</th><th scope="col" className={th}>Response</th><th scope="col" className={th}>Error</th></tr>
                  </thead>
                  <tbody className="divide-y divide-zinc-100">
                    {d!.deliveries.map((x) => (
                      <tr key={x.id}>
                        <td className={td}>{formatDateTime(x.at)}</td>
                        <td className={`${td} tabular-nums`}>{x.attempt}</td>
                        <td className={td}><Badge tone={x.status === "delivered" ? "pass" : "fail"}>{x.status === "delivered" ? "Delivered" : "Failed"}</Badge></td>
                        <td className={`${td} tabular-nums`}>{x.responseCode ?? "—"} · {x.durationMs} ms</td>
                        <td className={`${td} text-xs text-zinc-500`}>{x.error ?? ""}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                </div>
              )}
            </section>
            <section aria-label="Versions">
              <h3 className="mb-1 font-medium">Versions</h3>
              <ol className="space-y-1">
                {d!.versions.map((v) => (
                  <li key={v.version} className="flex items-center justify-between gap-2">
                    <span>v{v.version}: {v.summary}<span className="block text-xs text-zinc-500">{formatDateTime(v.changedAt)} · {v.changedVia}</span></span>
                    {canManage && v.version !== d!.rule.version && !v.definition.deleted ? (
                      <Button variant="secondary" size="sm" disabled={restore.isPending} onClick={() => restore.mutate({ id, version: v.version })}>Restore v{v.version}</Button>
                    ) : null}
                  </li>
                ))}
              </ol>
              <FormError error={restore.error} />
            </section>
          </>
        )}
        <div className="flex justify-end"><Button variant="ghost" size="sm" onClick={onClose}>Close</Button></div>
      </div>
    </Dialog>
  );
}
