"use client";
// Starting a replay from the console: the SDK's replay runner re-executes the code, so the console shows the
// exact call to run (a dataset or a selection of traces, and a replay name it picked) and follows the replay
// by polling the function's replays until one with that name appears, then its progress. docs/console.md
// "Replays".
import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useState } from "react";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { ExperimentStatus } from "../replays/replays-list.tsx";
import { useCan } from "./permissions.tsx";

/** What to replay: a dataset, or traces picked by id (at most 100, all of one trace function). */
export type TReplaySelection = { datasetId: string } | { traceIds: string[] };

type TReplayCardProps = { traceFunctionKey: string; selection: TReplaySelection; title: string };

/** Shown only to those who may start replays (a viewer is never offered a button that answers 403). */
export function ReplayCard(props: TReplayCardProps) {
  return useCan("replay") ? <ReplayCardBody {...props} /> : null;
}

function ReplayCardBody({ traceFunctionKey, selection, title }: TReplayCardProps) {
  const trpc = useTRPC();
  const [name] = useState(() => `console-${Math.random().toString(36).slice(2, 8)}`);
  const filter = "datasetId" in selection ? { datasetId: selection.datasetId } : { traceFunctionKey };
  const list = useQuery({
    ...trpc.replays.list.queryOptions({ ...filter, limit: 25 }),
    refetchInterval: (q) => {
      const mine = q.state.data?.experiments.find((e) => e.name === name);
      return mine && mine.status !== "pending" ? false : 3000;
    },
  });
  const mine = list.data?.experiments.find((e) => e.name === name);
  const fn = traceFunctionKey.replace(/[^A-Za-z0-9_$]/g, "_");
  const picked = "datasetId" in selection
    ? `datasetIds: [${JSON.stringify(selection.datasetId)}]`
    : `traceIds: [\n    ${selection.traceIds.map((id) => JSON.stringify(id)).join(",\n    ")},\n  ]`;
  const code = `import { Reprise } from "@reprise/sdk";

const reprise = new Reprise(); // reads REPRISE_API_KEY and REPRISE_URL
const result = await reprise.replay(${JSON.stringify(traceFunctionKey)}, ${fn}, {
  ${picked},
  name: ${JSON.stringify(name)},
});
console.log(result.url);`;
  return (
    <Card aria-label={title}>
      <CardHeader title={title} description={<>Your code runs the replay: call the SDK&apos;s replay runner with <code className="font-mono">{fn}</code>, your current implementation. This page follows it.</>}
        actions={<CopyButton value={code} label="Copy code" />} />
      <div className="space-y-2 px-4 py-3">
        <pre className="overflow-x-auto rounded-md bg-zinc-900 p-3 text-xs text-zinc-100">{code}</pre>
        <p className="text-sm text-zinc-700" aria-live="polite" data-testid="replay-follow">
          {mine ? (
            <>Replay <Link className="font-medium text-accent-700 hover:underline dark:text-accent-300" href={`/replays/${mine.id}`}>{mine.name}</Link> <ExperimentStatus status={mine.status} /> · {mine.counts.replays} of {mine.counts.planned} replayed</>
          ) : <>Waiting for replay <code className="font-mono">{name}</code> to start…</>}
        </p>
      </div>
    </Card>
  );
}
