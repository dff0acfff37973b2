"use client";
// The Replays page: experiments newest first with status, trace function and counts.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

const statusTone: Record<string, BadgeTone> = { completed: "pass", failed: "fail", interrupted: "warn", pending: "accent" };

export function ExperimentStatus({ status }: { status: string }) {
  return <Badge tone={statusTone[status] ?? "neutral"}>{status === "pending" ? "running" : status}</Badge>;
}

export function ReplaysList() {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<string[]>([]);
  const list = useQuery({ ...trpc.replays.list.queryOptions({ cursor: cursors.at(-1), limit: 25 }), placeholderData: keepPreviousData });
  return (
    <div className="space-y-4">
      <Card>
        {list.isPending ? <LoadingState label="Loading replays" /> : list.isError ? <ErrorState error={list.error} onRetry={() => list.refetch()} /> :
          list.data.experiments.length === 0 ? <NoReplays /> : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-zinc-100 text-xs text-zinc-500">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">Replay</th>
                  <th scope="col" className="px-3 py-2 font-medium">Trace function</th>
                  <th scope="col" className="px-3 py-2 font-medium">Status</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Originals</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Replayed</th>
                  <th scope="col" className="px-4 py-2 font-medium">Started</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {list.data.experiments.map((e) => (
                  <tr key={e.id} className="hover:bg-zinc-50">
                    <td className="max-w-80 px-4 py-2">
                      <Link href={`/replays/${e.id}`} className="block truncate font-medium text-accent-700 dark:text-accent-300 hover:underline">{e.name || `Replay ${e.id.slice(0, 8)}`}</Link>
                      {e.notes ? <span className="block truncate text-xs text-zinc-500">{e.notes}</span> : null}
                    </td>
                    <td className="px-3 py-2 font-mono text-xs">{e.traceFunctionKey}</td>
                    <td className="px-3 py-2"><ExperimentStatus status={e.status} /></td>
                    <td className="px-3 py-2 text-right tabular-nums">{e.counts.items}{e.attempts > 1 ? ` × ${e.attempts}` : ""}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{e.counts.replays} of {e.counts.planned}</td>
                    <td className="px-4 py-2 text-zinc-600" title={formatDateTime(e.createdAt)}>{formatRelative(e.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <nav aria-label="Pages" className="flex items-center justify-end gap-2">
        <Button variant="secondary" size="sm" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>Newer</Button>
        <Button variant="secondary" size="sm" disabled={!list.data?.nextCursor} onClick={() => list.data?.nextCursor && setCursors((c) => [...c, list.data.nextCursor!])}>Older</Button>
      </nav>
    </div>
  );
}

function NoReplays() {
  return (
    <EmptyState title="No replays yet">
      <p>A replay runs recorded traces through your current code and compares the new traces with the originals.</p>
      <pre className="overflow-x-auto rounded-md bg-zinc-900 p-3 text-left text-xs text-zinc-100">{`import { Reprise } from "@reprise/sdk";

const reprise = new Reprise(); // reads REPRISE_API_KEY and REPRISE_URL
const result = await reprise.replay("answer-question", answerQuestion, { limit: 5, name: "prompt v2" });
console.log(result.url);`}</pre>
      <p>The SDK prints a link to the replay; it appears here as soon as it starts.</p>
    </EmptyState>
  );
}
