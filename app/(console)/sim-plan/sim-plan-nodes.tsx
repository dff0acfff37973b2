"use client";
// Sim plan toggles: nodes per trace function with their span counts (content-off spans
// counted), a capture switch per node, locked nodes disabled with the reason.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { formatNumber } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { Switch } from "@/components/ui/switch.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";

type Node = RouterOutputs["simPlan"]["nodes"][number];

export function SimPlanNodes() {
  const trpc = useTRPC();
  const nodes = useQuery(trpc.simPlan.nodes.queryOptions({}));
  if (nodes.isPending) return <LoadingState label="Loading the sim plan" />;
  if (nodes.isError) return <ErrorState error={nodes.error} onRetry={() => nodes.refetch()} />;
  if (nodes.data.length === 0) {
    return <Card><EmptyState title="No nodes yet">Nodes appear once traces with spans are recorded. Send a trace with the SDK, then come back.</EmptyState></Card>;
  }
  const groups = new Map<string, Node[]>();
  for (const n of nodes.data) groups.set(n.traceFunctionKey, [...(groups.get(n.traceFunctionKey) ?? []), n]);
  return (
    <div className="space-y-6">
      {[...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, list]) => (
        <Card key={key} aria-label={`Trace function ${key}`}>
          <CardHeader title={<span className="font-mono">{key}</span>} description={`${list.length} node${list.length === 1 ? "" : "s"}`} />
          <ul className="divide-y divide-zinc-100">
            {list.sort((a, b) => a.name.localeCompare(b.name)).map((n) => <NodeRow key={n.name} node={n} />)}
          </ul>
        </Card>
      ))}
    </div>
  );
}

function NodeRow({ node }: { node: Node }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const decide = useMutation(trpc.simPlan.decide.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.simPlan.nodes.queryKey() }) }));
  const refused = decide.data?.refused[0];
  const cascaded = decide.data?.cascaded ?? [];
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
      <div className="min-w-0">
        <p className="truncate font-medium text-zinc-900">{node.name}</p>
        <p className="text-xs text-zinc-500">
          {formatNumber(node.spanCount)} span{node.spanCount === 1 ? "" : "s"}
          {node.contentOffSpanCount ? `, ${formatNumber(node.contentOffSpanCount)} recorded without content` : ""}
        </p>
        {node.lockMessage ? <p className="mt-1 text-xs text-amber-800">{node.lockMessage}</p> : null}
        {refused ? <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">{refused.reason}</p> : null}
        {cascaded.length ? (
          <p role="status" className="mt-1 text-xs text-zinc-600">Also turned off beneath it: {cascaded.map((c) => c.name).join(", ")}</p>
        ) : null}
        <FormError error={decide.error} />
      </div>
      <div className="flex items-center gap-2">
        {node.locked ? <Badge tone="warn">locked</Badge> : null}
        <span className="text-xs text-zinc-600">{node.captureContent ? "Capturing" : "Content off"}</span>
        <Switch
          label={`Capture content of ${node.name}`}
          checked={node.captureContent}
          disabled={node.locked || decide.isPending}
          onCheckedChange={(checked) => decide.mutate({ traceFunctionKey: node.traceFunctionKey, name: node.name, captureContent: checked })}
        />
      </div>
    </li>
  );
}
