"use client";
// One replay: the run's facts, then each item's original and replay(s) side by side: root outputs with a
// line diff, outlines, duration and token deltas, assertion verdicts and grader labels. Items load a page at a time.
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { ExperimentStatus } from "../replays-list.tsx";
import { ComparedTraceView } from "./compared-trace.tsx";
import { OutputDiff } from "./output-diff.tsx";
import { FactGrid } from "@/components/ui/fact-grid.tsx";
import { ExperimentReport } from "./experiment-report.tsx";
import { InputPreview } from "../../_components/input-preview.tsx";

type Page = RouterOutputs["replays"]["get"];
type Item = Page["items"][number];

export function ExperimentView({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.replays.get.infiniteQueryOptions({ id, limit: 20 }, {
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (q) => (q.state.data && isSettling(q.state.data.pages) ? 3000 : false),
  }));
  if (query.isPending) return <LoadingState label="Loading replay" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { experiment } = query.data.pages[0]!;
  const items = query.data.pages.flatMap((p) => p.items);
  return (
    <>
      <p className="mb-2 text-xs"><Link href="/replays" className="text-accent-700 dark:text-accent-300 hover:underline">← Replays</Link></p>
      <PageHeader title={experiment.name || `Replay ${experiment.id.slice(0, 8)}`}
        description={<span className="font-mono text-xs">{experiment.id}</span>}
        actions={<ExperimentStatus status={experiment.status} />} />
      <Facts experiment={experiment} items={items} />
      <ExperimentReport id={experiment.id} />
      {experiment.notes ? <p className="mb-6 text-sm whitespace-pre-wrap text-zinc-600">{experiment.notes}</p> : null}
      <div className="space-y-6">
        {items.length === 0 ? <Card><p className="px-4 py-6 text-sm text-zinc-500">This replay selected no traces.</p></Card> : null}
        {items.map((item) => <ItemCard key={item.originalTraceId} item={item} outputs={Object.assign({}, ...query.data.pages.map((p) => p.outputs)) as Page["outputs"]}
          input={query.data.pages.map((p) => p.previews[item.originalTraceId]?.input).find(Boolean) ?? null} />)}
      </div>
      {query.hasNextPage ? (
        <div className="mt-6 flex justify-center">
          <Button variant="secondary" disabled={query.isFetchingNextPage} onClick={() => query.fetchNextPage()}>
            {query.isFetchingNextPage ? "Loading…" : `Show more (${items.length} of ${experiment.counts.items})`}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** How long after completion the page keeps polling for verdicts the run's evaluation has not written yet. */
const EVALUATION_GRACE_MS = 2 * 60_000;

/**
 * Poll while the run is in flight (replay traces appear as they are recorded), and shortly after it completed
 * while a replay still has an unjudged assertion (the evaluation may finish after complete has answered).
 */
function isSettling(pages: Page[]): boolean {
  const e = pages[0]?.experiment;
  if (!e) return false;
  if (e.status === "pending") return true;
  if (!e.completedAt || Date.now() - Date.parse(e.completedAt) > EVALUATION_GRACE_MS) return false;
  return e.judgeAssertions && pages.some((p) => p.items.some((i) => i.replays.some((r) => r.verdict?.assertions.some((a) => a.labelStatus === "unlabeled"))));
}

function Facts({ experiment: e, items }: { experiment: Page["experiment"]; items: Item[] }) {
  const verdicts = items.flatMap((i) => i.replays.flatMap((r) => r.verdict?.assertions ?? []));
  const count = (f: (v: (typeof verdicts)[number]) => boolean) => verdicts.filter(f).length;
  const facts: [string, React.ReactNode][] = [
    ["Trace function", <span key="fn" className="font-mono">{e.traceFunctionKey}</span>],
    ["Started", formatDateTime(e.createdAt)],
    ["Completed", e.completedAt ? formatDateTime(e.completedAt) : "not yet"],
    ["Replayed", `${e.counts.replays} of ${e.counts.planned} (${e.counts.completedReplays} completed)`],
    ["Originals", `${e.counts.items}${e.attempts > 1 ? ` × ${e.attempts} attempts` : ""}`],
    ["Graders", String(e.graderIds.length)],
    ["Assertions", e.judgeAssertions ? "judged at completion" : "not judged"],
    ["Assertion verdicts", verdicts.length ? `${count((v) => v.label === true)} pass · ${count((v) => v.label === false)} fail · ${count((v) => v.labelStatus === "errored")} errored` : "—"],
  ];
  return (
    <FactGrid className="mb-6" facts={facts} />
  );
}

function ItemCard({ item, outputs, input }: { item: Item; outputs: Page["outputs"]; input: string | null }) {
  const title = item.original?.outline.name || item.original?.outline.traceFunctionKey || item.originalTraceId;
  return (
    <Card aria-label={`Item ${item.position + 1}: ${title}`}>
      <CardHeader title={<>#{item.position + 1} · {title}</>}
        description={<><InputPreview input={input} />{`${item.replays.length} replay trace${item.replays.length === 1 ? "" : "s"}`}</>} />
      <div className="border-b border-zinc-100 p-4">
        <OutputDiff outputs={outputs} originalId={item.original?.traceId ?? null}
          replays={item.replays.map((r) => ({ traceId: r.traceId, label: item.replays.length > 1 ? `Replay, attempt ${r.attempt ?? "?"}` : "Replay" }))} />
      </div>
      <div className="grid gap-4 p-4 lg:grid-cols-2">
        {item.original ? <ComparedTraceView side="Original" trace={item.original} /> : (
          <p className="rounded-md border border-dashed border-zinc-300 p-3 text-sm text-zinc-500">The original trace {item.originalTraceId.slice(0, 8)} is no longer stored.</p>
        )}
        <div className="min-w-0 space-y-4">
          {item.replays.length === 0 ? (
            <p className="rounded-md border border-dashed border-zinc-300 p-3 text-sm text-zinc-500">No replay trace recorded for this item yet.</p>
          ) : item.replays.map((r) => (
            <ComparedTraceView key={r.traceId} side={item.replays.length > 1 ? `Replay, attempt ${r.attempt ?? "?"}` : "Replay"} trace={r} delta={r.delta} />
          ))}
        </div>
      </div>
    </Card>
  );
}
