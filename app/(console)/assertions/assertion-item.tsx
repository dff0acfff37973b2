"use client";
// One assertion in a list (the trace page and the Assertions page): statement, review state, target, check,
// criteria, author, and the edit / history / archive actions.
import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { formatRelative } from "@/components/ui/format.ts";
import { FormError } from "@/components/ui/states.tsx";
import { describeCheck } from "@/components/check-fields.tsx";
import { describeTarget } from "@/components/target-picker.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { useInvalidateAssertions, type Assertion } from "./assertion-dialog.tsx";
import { AssertionHistory } from "./assertion-history.tsx";
import { StateBadge } from "./state-badge.tsx";

export function AssertionItem({ assertion: a, onEdit, context }: { assertion: Assertion; onEdit?: () => void; context?: ReactNode }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAssertions();
  const archive = useMutation(trpc.assertions.archive.mutationOptions({ onSuccess: invalidate }));
  const remove = useMutation(trpc.lifecycle.deleteAssertion.mutationOptions({ onSuccess: invalidate }));
  const confirmDelete = () => {
    if (window.confirm(`Delete the assertion "${a.assertion}" with its verdicts? It can be restored from Settings.`)) remove.mutate({ id: a.id });
  };
  const confirmArchive = () => {
    if (window.confirm(`Archive the assertion "${a.assertion}"? It stops applying to replays.`)) archive.mutate({ traceId: a.traceId, assertionIds: [a.id] });
  };
  const check = describeCheck(a.check);
  const [showHistory, setShowHistory] = useState(false);
  return (
    <li className="space-y-1.5 px-4 py-3" aria-label={`Assertion: ${a.assertion}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 font-medium break-words text-zinc-900">{a.assertion}</p>
        {onEdit ? (
          <div className="flex shrink-0 gap-1.5">
            <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit assertion: ${a.assertion}`}>Edit</Button>
            <Button variant="ghost" size="sm" onClick={() => setShowHistory(true)} aria-label={`History of assertion: ${a.assertion}`}>History</Button>
            <Button variant="danger" size="sm" disabled={archive.isPending} onClick={confirmArchive} aria-label={`Archive assertion: ${a.assertion}`}>Archive</Button>
            <Button variant="ghost" size="sm" disabled={remove.isPending} onClick={confirmDelete} aria-label={`Delete assertion: ${a.assertion}`}>Delete</Button>
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-1.5 text-xs">
        <StateBadge state={a.approvalState} />
        <Badge>{describeTarget(a.targetOnEvaluatedTrace)}</Badge>
        {check ? <Badge tone="accent">{check}</Badge> : <span className="text-zinc-500">judged by a person or the LLM judge</span>}
      </div>
      {a.passCriteria ? <p className="text-xs text-zinc-600"><span className="font-medium text-emerald-800">Passes when</span> {a.passCriteria}</p> : null}
      {a.failCriteria ? <p className="text-xs text-zinc-600"><span className="font-medium text-red-800">Fails when</span> {a.failCriteria}</p> : null}
      {a.humanNote ? <p className="text-xs whitespace-pre-wrap text-zinc-600">{a.humanNote}</p> : null}
      <p className="text-xs text-zinc-500">
        {context}{context ? " · " : ""}{a.source === "human" ? "written by" : "proposed by an agent for"} {a.author?.fullName || a.author?.email || "unknown"} · updated {formatRelative(a.updatedAt)}
      </p>
      <FormError error={archive.error ?? remove.error} />
      {showHistory ? <AssertionHistory assertionId={a.id} onClose={() => setShowHistory(false)} /> : null}
    </li>
  );
}
