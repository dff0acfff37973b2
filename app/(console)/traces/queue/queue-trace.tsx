"use client";
// One trace of the labelling queue: what it is, its current verdict with who recorded it, and its root
// span's input and output, and the scores and categories of its graders that record them (recorded like on the
// trace page: history kept, undoable). The next trace is fetched ahead so advancing shows it at once.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useEffect } from "react";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { PayloadView } from "@/components/payload-view.tsx";
import { RecordedBy, StatusBadge, VerdictBadge } from "../trace-badges.tsx";
import { useTrace } from "../use-trace.ts";
import { GraderLabels } from "../[id]/grader-labels.tsx";

export function QueueTrace({ traceId, nextId }: { traceId: string; nextId: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useTrace(traceId);
  const rootId = query.data?.waterfall.spans[0]?.id ?? null;
  const root = useQuery({ ...trpc.traces.span.queryOptions({ traceId, spanId: rootId ?? traceId }), enabled: rootId !== null });

  useEffect(() => {
    if (nextId) void queryClient.prefetchQuery(trpc.traces.get.queryOptions({ id: nextId }));
  }, [nextId, queryClient, trpc]);

  if (query.isPending) return <Card><LoadingState label="Loading trace" /></Card>;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { trace, verdict, verdictRecords } = query.data;
  return (
    <div className="space-y-4">
    <Card aria-label="Trace to label">
      <CardHeader
        title={<Link href={`/traces/${trace.id}`} className="text-accent-700 dark:text-accent-300 hover:underline">{trace.name || trace.traceFunctionKey || trace.id}</Link>}
        description={<>{trace.traceFunctionKey && trace.name ? `${trace.traceFunctionKey} · ` : ""}{formatDateTime(trace.startedAt)}{trace.sessionId ? <> · session <Link className="text-accent-700 dark:text-accent-300 hover:underline" href={`/traces?session=${encodeURIComponent(trace.sessionId)}`}>{trace.sessionId}</Link></> : null}</>}
        actions={<StatusBadge status={trace.status} />}
      />
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-100 px-4 py-2 text-sm" data-testid="current-verdict">
        <span className="text-xs font-medium text-zinc-600">Current verdict</span>
        <VerdictBadge verdict={verdict} />
        <RecordedBy records={verdictRecords} assertionId={null} />
        {verdict?.annotation ? <span className="w-full text-xs whitespace-pre-wrap text-zinc-600">“{verdict.annotation}”</span> : null}
      </div>
      <div className="space-y-4 p-4">
        {rootId === null ? <p className="text-sm text-zinc-500">This trace has no spans yet.</p> : root.isPending ? <LoadingState label="Loading input and output" /> : root.isError ? <ErrorState error={root.error} /> : (
          <>
            <section><h3 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Input</h3><PayloadView value={root.data.span.input} label="Trace input" /></section>
            <section><h3 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Output</h3><PayloadView value={root.data.span.output} label="Trace output" /></section>
          </>
        )}
      </div>
    </Card>
    {/* Scores and categories of graders that record them, through the trace page's form and service. */}
    <GraderLabels data={query.data} scored />
    </div>
  );
}
