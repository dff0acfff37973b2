"use client";
// One experiment group: its name, notes and graders, and its experiments newest first.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { Card } from "@/components/ui/card.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { ExperimentStatus } from "../../replays-list.tsx";

export function GroupView({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.replays.group.queryOptions({ id }));
  if (query.isPending) return <LoadingState label="Loading experiment group" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { group, experiments } = query.data;
  return (
    <>
      <p className="mb-2 text-xs"><Link href="/replays" className="text-accent-700 dark:text-accent-300 hover:underline">← Replays</Link></p>
      <PageHeader title={group.name || `Group ${group.id.slice(0, 8)}`} description={<span className="font-mono text-xs">{group.id}</span>} />
      {group.notes ? <p className="mb-4 whitespace-pre-wrap text-sm text-zinc-600">{group.notes}</p> : null}
      <p className="mb-4 text-sm text-zinc-600">{experiments.length} experiment(s) · {group.graderIds.length} grader(s) attached</p>
      <Card>
        <table className="w-full text-sm">
          <thead><tr className="text-left text-xs text-zinc-500"><th className="px-4 py-2">Experiment</th><th className="px-4 py-2">Status</th><th className="px-4 py-2">Replays</th><th className="px-4 py-2">Started</th></tr></thead>
          <tbody>
            {experiments.map((e) => (
              <tr key={e.id} className="border-t border-zinc-100">
                <td className="px-4 py-2"><Link href={`/replays/${e.id}`} className="text-accent-700 dark:text-accent-300 hover:underline">{e.name || e.id.slice(0, 8)}</Link>{e.gitBranch ? <span className="ml-2 font-mono text-xs text-zinc-500">{e.gitBranch}</span> : null}</td>
                <td className="px-4 py-2"><ExperimentStatus status={e.status} /></td>
                <td className="px-4 py-2">{e.counts.replays} of {e.counts.planned}</td>
                <td className="px-4 py-2">{formatDateTime(e.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}
