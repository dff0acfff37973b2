"use client";
// Human verdicts: pass/fail with an annotation on the trace and on each assertion (the
// same writes as POST /api/sdk/traces/labels/human), clear, approve/reject an agent verdict, and keyboard
// shortcuts P (pass), F (fail), N (next trace of the list, skipping this one).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { useCan } from "../../_components/permissions.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Textarea } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { RecordedBy, VerdictBadge } from "../trace-badges.tsx";
import { EvidenceLinks } from "../../review/evidence-links.tsx";
import type { TTraceData as TraceData } from "../use-trace.ts";

type Verdict = Pick<NonNullable<TraceData["verdict"]>, "labelStatus" | "label" | "labelSource" | "approved" | "annotation" | "evidence">;

function useVerdictActions(traceId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.traces.get.queryKey({ id: traceId }) }),
    queryClient.invalidateQueries({ queryKey: trpc.labels.history.queryKey({ traceId }) }),
  ]);
  return {
    save: useMutation(trpc.labels.saveHuman.mutationOptions({ onSuccess: refresh })),
    clear: useMutation(trpc.labels.clear.mutationOptions({ onSuccess: refresh })),
    review: useMutation(trpc.labels.review.mutationOptions({ onSuccess: refresh })),
  };
}

export function VerdictPanel({ data }: { data: TraceData }) {
  const traceId = data.trace.id;
  return (
    <Card aria-label="Verdict">
      <CardHeader title="Verdict" description={<>Shortcuts: <kbd>P</kbd> pass · <kbd>F</kbd> fail</>} />
      <div className="divide-y divide-zinc-100">
        <TargetVerdict traceId={traceId} assertionId={null} title="Whole trace" verdict={data.verdict} records={data.verdictRecords} shortcuts />
        {data.assertions.assertions.map((a) => (
          <TargetVerdict key={a.id} traceId={traceId} assertionId={a.id} title={a.assertion}
            verdict={data.verdict?.assertions.find((v) => v.assertionId === a.id) ?? null} records={data.verdictRecords} />
        ))}
      </div>
      <div className="flex justify-end border-t border-zinc-100 px-4 py-2.5">
        <Link href={data.trace.traceFunctionKey ? `/traces/queue?fn=${encodeURIComponent(data.trace.traceFunctionKey)}&label=unlabeled` : "/traces/queue?label=unlabeled"}
          className="text-xs font-medium text-accent-700 dark:text-accent-300 hover:underline">Label unlabelled traces of this function in a queue</Link>
      </div>
    </Card>
  );
}

function TargetVerdict({ traceId, assertionId, title, verdict, records, shortcuts }: {
  traceId: string;
  assertionId: string | null;
  title: string;
  verdict: Verdict | null;
  records: TraceData["verdictRecords"];
  shortcuts?: boolean;
}) {
  const { save, clear, review } = useVerdictActions(traceId);
  const canLabel = useCan("label");
  const [annotation, setAnnotation] = useState(verdict?.annotation ?? "");
  const record = (label: boolean) => save.mutate({ traceId, assertionId, label, annotation: annotation.trim() || null });

  useEffect(() => {
    if (!shortcuts || !canLabel) return;
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (e.metaKey || e.ctrlKey || e.altKey || e.repeat || el?.closest("input, textarea, select, [contenteditable=true]")) return;
      const key = e.key.toLowerCase();
      if (key === "p") record(true);
      else if (key === "f") record(false);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const busy = save.isPending || clear.isPending || review.isPending;
  const labelled = verdict && verdict.labelStatus !== "unlabeled";
  const unapprovedAgent = verdict?.labelSource === "agent" && verdict.labelStatus === "labeled" && !verdict.approved;
  const name = assertionId ? `assertion "${title}"` : "the whole trace";
  return (
    <section aria-label={assertionId ? `Assertion: ${title}` : "Whole trace"} className="space-y-2 px-4 py-3">
      <div className="flex items-start justify-between gap-2">
        <h3 className="text-sm font-medium text-zinc-900">{title}</h3>
        <span data-testid="current-verdict" className="flex flex-col items-end gap-0.5"><VerdictBadge verdict={verdict} />{labelled ? <RecordedBy records={records} assertionId={assertionId} /> : null}</span>
      </div>
      {verdict?.annotation ? <p className="text-xs whitespace-pre-wrap text-zinc-600">{verdict.annotation}</p> : null}
      <EvidenceLinks traceId={traceId} evidence={verdict?.evidence} />
      {canLabel ? (
        <>
        <Textarea aria-label={`Annotation for ${name}`} placeholder="Why? (optional)" className="min-h-14 text-xs" value={annotation} onChange={(e) => setAnnotation(e.target.value)} />
        <div className="flex flex-wrap gap-2">
          <Button variant="pass" size="sm" disabled={busy} onClick={() => record(true)} aria-label={`Pass ${name}`}>Pass</Button>
          <Button variant="fail" size="sm" disabled={busy} onClick={() => record(false)} aria-label={`Fail ${name}`}>Fail</Button>
          {labelled ? <Button variant="ghost" size="sm" disabled={busy} onClick={() => clear.mutate({ traceId, assertionId })} aria-label={`Clear verdict of ${name}`}>Clear</Button> : null}
          {unapprovedAgent ? (
            <>
              <Button variant="secondary" size="sm" disabled={busy} onClick={() => review.mutate({ traceId, assertionId, approve: true })}>Approve agent verdict</Button>
              <Button variant="danger" size="sm" disabled={busy} onClick={() => review.mutate({ traceId, assertionId, approve: false })}>Reject</Button>
            </>
          ) : null}
        </div>
        <FormError error={save.error ?? clear.error ?? review.error} />
        </>
      ) : null}
    </section>
  );
}
