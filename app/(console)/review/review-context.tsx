"use client";
// Beside the focused review card: what the assertion will be judged on, shown on its own trace (docs/console.md,
// "Review"): the trace's input and output, the span its target picks, and what its check says there now.
import { useQuery } from "@tanstack/react-query";
import { PayloadView } from "@/components/payload-view.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

export function ReviewContext({ assertionId, hasCheck }: { assertionId: string; hasCheck: boolean }) {
  const trpc = useTRPC();
  const context = useQuery(trpc.review.context.queryOptions({ assertionId }));
  if (context.isPending) return <LoadingState label="Loading the trace's context" />;
  if (context.isError) return <ErrorState error={context.error} onRetry={() => context.refetch()} />;
  const { root, target, onThisTrace } = context.data;
  const v = onThisTrace;
  return (
    <section aria-label="Trace context" className="space-y-3 text-sm">
      <div role="status" aria-label="On this trace" className="flex flex-wrap items-center gap-2 text-xs text-zinc-600">
        <span className="font-medium">On this trace now:</span>
        {!hasCheck ? <span>no check; a person or the LLM judge decides on each replay</span>
          : v === null ? null
          : v.label === true ? <><Badge tone="pass">passes</Badge><span>{v.reason}</span></>
          : v.label === false ? <><Badge tone="fail">fails</Badge><span>{v.reason}</span></>
          : <><Badge tone="warn">errors</Badge><span>{v.failureDiagnostic}</span></>}
      </div>
      {root ? (
        <>
          <div><h4 className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Input</h4><PayloadView value={root.input} label="Context input" /></div>
          <div><h4 className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Output</h4><PayloadView value={root.output} label="Context output" /></div>
        </>
      ) : <p className="text-xs text-zinc-500">This trace has no spans yet.</p>}
      {target.missing ? <p className="text-xs text-amber-800">Target not found on this trace: {target.missing}.</p>
        : target.span && target.span.id !== root?.id ? (
          <div>
            <h4 className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
              Targeted span: <a className="text-accent-700 dark:text-accent-300 normal-case hover:underline" href={`/traces/${context.data.traceId}#span-${target.span.id}`}>{target.span.name}</a>
            </h4>
            <PayloadView value={target.span.output} label="Targeted span output" />
          </div>
        ) : null}
    </section>
  );
}
