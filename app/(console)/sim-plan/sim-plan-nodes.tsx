"use client";
// Sim plan toggles: nodes per trace function with their span counts (content-off spans
// counted), a capture switch per node, locked nodes disabled with the reason, and who decided each node.
// A toggle applies at once; the status line then offers to undo it, which puts back every node it changed
// (those turned off beneath it included) as they were. docs/console.md, "Sim plan".
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { formatNumber, formatRelative } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { Switch } from "@/components/ui/switch.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { useCan } from "../_components/permissions.tsx";

type Node = RouterOutputs["simPlan"]["nodes"][number];
type Decided = RouterOutputs["simPlan"]["decide"];
type Change = { text: string; previous: Decided["previous"] };

export function SimPlanNodes() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const nodes = useQuery(trpc.simPlan.nodes.queryOptions({}));
  const [change, setChange] = useState<Change | null>(null);
  const [status, setStatus] = useState("");
  const restore = useMutation(trpc.simPlan.restore.mutationOptions({
    onSuccess: async (r) => {
      setChange(null);
      setStatus(r.refused.length ? `Undone, except: ${r.refused.map((x) => `${x.name} (${x.reason})`).join("; ")}` : "Undone: the plan is as it was before that change.");
      await queryClient.invalidateQueries({ queryKey: trpc.simPlan.nodes.queryKey() });
    },
  }));
  const onDecided = (node: Node, captureContent: boolean, result: Decided) => {
    if (result.previous.length === 0) return;
    const beneath = result.cascaded.length ? ` and beneath it for ${result.cascaded.map((c) => c.name).join(", ")}` : "";
    setStatus("");
    setChange({ text: `Turned content capture ${captureContent ? "on" : "off"} for ${node.name}${beneath}.`, previous: result.previous });
  };
  if (nodes.isPending) return <LoadingState label="Loading the sim plan" />;
  if (nodes.isError) return <ErrorState error={nodes.error} onRetry={() => nodes.refetch()} />;
  if (nodes.data.length === 0) {
    return <Card><EmptyState title="No nodes yet">Nodes appear once traces with spans are recorded. Send a trace with the SDK, then come back.</EmptyState></Card>;
  }
  const groups = new Map<string, Node[]>();
  for (const n of nodes.data) groups.set(n.traceFunctionKey, [...(groups.get(n.traceFunctionKey) ?? []), n]);
  return (
    <div className="space-y-6">
      <div className="flex min-h-9 flex-wrap items-center gap-2 text-sm" role="group" aria-label="Last change">
        <span role="status" aria-live="polite" className="text-zinc-700">{change?.text ?? status}</span>
        {change ? (
          <Button size="sm" variant="secondary" disabled={restore.isPending} onClick={() => restore.mutate({ decisions: change.previous })}>Undo</Button>
        ) : null}
        <FormError error={restore.error} />
      </div>
      {[...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, list]) => (
        <Card key={key} aria-label={`Trace function ${key}`}>
          <CardHeader title={<span className="font-mono">{key}</span>} description={`${list.length} node${list.length === 1 ? "" : "s"}`} />
          <ul className="divide-y divide-zinc-100">
            {list.sort((a, b) => a.name.localeCompare(b.name)).map((n) => <NodeRow key={n.name} node={n} onDecided={onDecided} />)}
          </ul>
        </Card>
      ))}
    </div>
  );
}

function NodeRow({ node, onDecided }: { node: Node; onDecided: (node: Node, captureContent: boolean, result: Decided) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const decide = useMutation(trpc.simPlan.decide.mutationOptions({
    onSuccess: async (result, input) => {
      onDecided(node, input.captureContent, result);
      await queryClient.invalidateQueries({ queryKey: trpc.simPlan.nodes.queryKey() });
    },
  }));
  const refused = decide.data?.refused[0];
  const canDecide = useCan("manage-sim-plan");
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" aria-label={`Node ${node.name}`}>
      <div className="min-w-0">
        <p className="truncate font-medium text-zinc-900">{node.name}</p>
        <p className="text-xs text-zinc-500">
          {formatNumber(node.spanCount)} span{node.spanCount === 1 ? "" : "s"}
          {node.contentOffSpanCount ? `, ${formatNumber(node.contentOffSpanCount)} recorded without content` : ""}
          {node.decidedAt ? ` · decided by ${node.decidedBy ?? "an API key"} ${formatRelative(node.decidedAt)}` : ""}
        </p>
        {node.lockMessage ? <p className="mt-1 text-xs text-amber-800">{node.lockMessage}</p> : null}
        {refused ? <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">{refused.reason}</p> : null}
        <FormError error={decide.error} />
      </div>
      <div className="flex items-center gap-2">
        {node.locked ? <Badge tone="warn">locked</Badge> : null}
        <span className="text-xs text-zinc-600">{node.captureContent ? "Capturing" : "Content off"}</span>
        <Switch
          label={`Capture content of ${node.name}`}
          checked={node.captureContent}
          disabled={!canDecide || node.locked || decide.isPending}
          onCheckedChange={(checked) => decide.mutate({ traceFunctionKey: node.traceFunctionKey, name: node.name, captureContent: checked })}
        />
      </div>
    </li>
  );
}
