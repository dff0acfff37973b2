"use client";
// Graders: list, create and edit rule and LLM-judge graders, archive.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { describeCheck } from "@/components/check-fields.tsx";
import { describeTarget } from "@/components/target-picker.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { GraderDialog } from "./grader-form.tsx";
import { GraderHistoryDialog } from "./grader-history.tsx";
import { BackfillDialog } from "./backfill-dialog.tsx";
import { useCan } from "../_components/permissions.tsx";

export type Grader = RouterOutputs["graders"]["list"][number];

export function GradersList() {
  const canEdit = useCan("manage-graders");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const graders = useQuery(trpc.graders.list.queryOptions({}));
  const [editing, setEditing] = useState<Grader | "new" | null>(null);
  const [historyOf, setHistoryOf] = useState<Grader | null>(null);
  const [backfillOf, setBackfillOf] = useState<Grader | null>(null);
  const save = useMutation(trpc.graders.save.mutationOptions({
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: trpc.graders.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.graders.versions.queryKey() })]),
  }));
  const remove = useMutation(trpc.lifecycle.deleteGrader.mutationOptions({
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: trpc.graders.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.lifecycle.deleted.queryKey() })]),
  }));
  const archive = (g: Grader) => save.mutate({ id: g.id, traceFunctionKey: g.traceFunctionKey, name: g.name, kind: g.kind, config: g.config, status: "archived" });
  return (
    <div className="space-y-4">
      {canEdit ? <div className="flex justify-end"><Button onClick={() => setEditing("new")}>New grader</Button></div> : null}
      <Card>
        {graders.isPending ? <LoadingState label="Loading graders" /> : graders.isError ? <ErrorState error={graders.error} onRetry={() => graders.refetch()} /> :
          graders.data.length === 0 ? <EmptyState title="No graders yet">Create a rule grader (for example “no span recorded an error”) or an LLM judge, then assign it to a dataset.</EmptyState> : (
          <ul className="divide-y divide-zinc-100">
            {graders.data.map((g) => (
              <li key={g.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-zinc-900">{g.name} <Badge className="ml-1">{g.kind === "rule" ? "rule" : "LLM judge"}</Badge>
                    {g.status === "archived" ? <Badge className="ml-1" tone="warn">archived</Badge> : g.live ? <Badge className="ml-1" tone="accent">live</Badge> : null}</p>
                  <p className="truncate text-xs text-zinc-500"><span className="font-mono">{g.traceFunctionKey}</span> · version {g.version} · {describeGrader(g)}</p>
                </div>
                <div className="flex gap-2">
                  {canEdit ? <Button variant="secondary" size="sm" onClick={() => setEditing(g)} aria-label={`Edit ${g.name}`}>Edit</Button> : null}
                  <Button variant="ghost" size="sm" onClick={() => setHistoryOf(g)} aria-label={`History of ${g.name}`}>History</Button>
                  {canEdit && g.status === "active" ? <Button variant="ghost" size="sm" onClick={() => setBackfillOf(g)} aria-label={`Backfill ${g.name}`}>Backfill</Button> : null}
                  {canEdit && g.status === "active" ? <Button variant="danger" size="sm" disabled={save.isPending} onClick={() => archive(g)} aria-label={`Archive ${g.name}`}>Archive</Button> : null}
                  {canEdit ? <Button variant="ghost" size="sm" disabled={remove.isPending} aria-label={`Delete ${g.name}`}
                    onClick={() => { if (window.confirm(`Delete grader "${g.name}"? It can be restored from Settings.`)) remove.mutate({ id: g.id }); }}>Delete</Button> : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {editing ? <GraderDialog key={editing === "new" ? "new" : editing.id} grader={editing === "new" ? null : editing} onClose={() => setEditing(null)} onOpenExisting={setEditing} /> : null}
      {backfillOf ? <BackfillDialog key={backfillOf.id} grader={backfillOf} onClose={() => setBackfillOf(null)} /> : null}
      {historyOf ? <GraderHistoryDialog key={historyOf.id} grader={historyOf} onClose={() => setHistoryOf(null)} /> : null}
    </div>
  );
}

/** What the grader looks at and how it decides, in words (the config's target and check, or judge settings). */
function describeGrader(g: Grader): string {
  const config = (g.config ?? {}) as { target?: unknown; check?: unknown; model?: string; instructions?: string };
  const target = describeTarget(config.target);
  if (g.kind === "rule") return `${target} · ${describeCheck(config.check) ?? "no check"}`;
  return `${target} · judged by ${config.model ?? "the default model"}${config.instructions ? `: “${config.instructions}”` : ""}`;
}
