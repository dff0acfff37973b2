"use client";
// Verdict history: every verdict recorded on this trace and its assertions, newest first: who decided (a person,
// an agent through a user's key, the replay judge), what, when, and whether it is current, was replaced by a
// later verdict, or was withdrawn (cleared or undone); a person's approval or rejection of an agent verdict too.
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";

type Entry = RouterOutputs["labels"]["history"]["entries"][number];

export function VerdictHistory({ traceId }: { traceId: string }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.labels.history.queryOptions({ traceId }));
  return (
    <Card aria-label="Verdict history" className="min-w-0">
      <CardHeader title="Verdict history" description="Who decided what and when, newest first; replaced verdicts are kept." />
      {history.isPending ? <LoadingState label="Loading verdict history" /> : history.isError ? <ErrorState error={history.error} onRetry={() => history.refetch()} /> :
        history.data.entries.length === 0 ? <p className="px-4 py-3 text-sm text-zinc-500">No verdict has been recorded on this trace.</p> : (
          <ol className="divide-y divide-zinc-100">
            {history.data.entries.map((e) => <HistoryEntry key={e.id} entry={e} />)}
          </ol>
        )}
    </Card>
  );
}

function HistoryEntry({ entry: e }: { entry: Entry }) {
  const ended = e.state !== "current";
  return (
    <li data-state={e.state} className={`space-y-0.5 px-4 py-2.5 ${ended ? "opacity-70" : ""}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex items-center gap-1.5 text-sm">
          <VerdictWord entry={e} />
          <span className="text-zinc-700">{e.assertionId ? `Assertion: ${e.assertion ?? e.assertionId}` : "Whole trace"}</span>
        </span>
        {e.state === "current" ? <Badge tone="accent">current</Badge> : <Badge title={e.endedAt ? formatDateTime(e.endedAt) : undefined}>{e.state}{e.endedAt ? ` ${formatRelative(e.endedAt)}` : ""}</Badge>}
      </div>
      <p className="text-xs text-zinc-500">
        {decider(e)} · <time dateTime={e.decidedAt} title={formatDateTime(e.decidedAt)}>{formatRelative(e.decidedAt)}</time>
        {e.review ? ` · ${e.review.state} by ${e.review.by ?? "a deleted user"}${e.review.at ? ` ${formatRelative(e.review.at)}` : ""}` : ""}
      </p>
      {e.annotation ? <p className="text-xs whitespace-pre-wrap text-zinc-600">{e.annotation}</p> : null}
    </li>
  );
}

function VerdictWord({ entry: e }: { entry: Entry }) {
  if (e.labelStatus === "skipped") return <Badge>skipped</Badge>;
  if (e.labelStatus === "errored" || e.label === null) return <Badge tone="warn">errored</Badge>;
  return <Badge tone={e.label ? "pass" : "fail"}>{e.label ? "pass" : "fail"}</Badge>;
}

function decider(e: Entry): string {
  if (e.labelSource === "human") return `by ${e.decidedBy ?? "a deleted user"}`;
  if (e.labelSource === "judge") return "by the LLM judge";
  return `by an agent${e.decidedBy ? ` (key of ${e.decidedBy})` : ""}`;
}
