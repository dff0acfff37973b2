// One side of a comparison: a trace's headline numbers (with deltas on the replay side), its outline, its
// assertion verdicts and its grader labels.
import { Link } from "@/components/ui/link.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { cn } from "@/components/ui/cn.ts";
import { formatDuration, formatNumber } from "@/components/ui/format.ts";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { StatusBadge, VerdictBadge } from "../../traces/trace-badges.tsx";
import { OutlineTree } from "./outline-tree.tsx";

type Item = RouterOutputs["replays"]["get"]["items"][number];
export type ComparedTrace = NonNullable<Item["original"]>;
export type Delta = Item["replays"][number]["delta"];
type AssertionVerdict = NonNullable<ComparedTrace["verdict"]>["assertions"][number];

export function ComparedTraceView({ side, trace, delta }: { side: string; trace: ComparedTrace; delta?: Delta }) {
  return (
    <section aria-label={side} className="min-w-0 space-y-3 rounded-md border border-zinc-200 p-3">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">{side}</h4>
        <Link href={`/traces/${trace.traceId}`} className="text-xs text-accent-700 dark:text-accent-300 hover:underline">Open trace {trace.traceId.slice(0, 8)}</Link>
      </header>
      <dl className="grid grid-cols-3 gap-2 text-xs">
        <div><dt className="text-zinc-500">Status</dt><dd className="mt-0.5"><StatusBadge status={trace.outline.status} /></dd></div>
        <div>
          <dt className="text-zinc-500">Duration</dt>
          <dd className="mt-0.5 tabular-nums">{formatDuration(trace.outline.durationMs)} {delta ? <DeltaBadge value={delta.durationMs} format={(n) => formatDuration(Math.abs(n))} what="duration" /> : null}</dd>
        </div>
        <div>
          <dt className="text-zinc-500">Tokens</dt>
          <dd className="mt-0.5 tabular-nums">{formatNumber(trace.tokens?.total)} {delta ? <DeltaBadge value={delta.totalTokens} format={(n) => formatNumber(Math.abs(n))} what="tokens" /> : null}</dd>
        </div>
      </dl>
      <OutlineTree outline={trace.outline} label={`Outline of the ${side.toLowerCase()}`} />
      <Verdicts trace={trace} />
    </section>
  );
}

/** Replay minus original: more time or tokens is worse (red), less is better (green). */
function DeltaBadge({ value, format, what }: { value: number | null; format: (n: number) => string; what: string }) {
  if (value === null) return null;
  if (value === 0) return <span className="text-zinc-500">±0</span>;
  const sign = value > 0 ? "+" : "−";
  return (
    <span title={`${what} ${value > 0 ? "up" : "down"} against the original`}
      className={cn("rounded px-1 font-medium whitespace-nowrap", value > 0 ? "bg-red-50 text-red-800" : "bg-emerald-50 text-emerald-800")}>
      {sign}{format(value)}
    </span>
  );
}

function Verdicts({ trace }: { trace: ComparedTrace }) {
  const assertions = trace.verdict?.assertions ?? [];
  return (
    <div className="space-y-2 text-xs">
      <div className="flex items-center justify-between gap-2">
        <span className="text-zinc-500">Trace verdict</span>
        <VerdictBadge verdict={trace.verdict} />
      </div>
      {assertions.length ? (
        <ul aria-label="Assertion verdicts" className="space-y-1">
          {assertions.map((a) => (
            <li key={a.assertionId} className="rounded bg-zinc-50 px-2 py-1.5">
              <div className="flex items-start justify-between gap-2"><span className="min-w-0 break-words">{a.assertion}</span><AssertionVerdictBadge v={a} /></div>
              {a.annotation ? <p className="mt-0.5 text-zinc-500">{a.annotation}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {trace.graderLabels.length ? (
        <ul aria-label="Grader labels" className="space-y-1">
          {trace.graderLabels.map((g) => (
            <li key={g.graderId} className="flex items-start justify-between gap-2 rounded bg-zinc-50 px-2 py-1.5" title={g.labelReason ?? g.failureDiagnostic ?? undefined}>
              <span className="min-w-0 break-words">Grader {g.graderName}</span>
              <span className="flex items-center gap-1">
                {g.score !== null ? <Badge tone="accent">score {g.score}</Badge> : g.category !== null ? <Badge tone="accent">{g.category}</Badge> : null}
                {g.label === null ? (g.score === null && g.category === null ? <Badge tone="warn">errored</Badge> : null) : <Badge tone={g.label ? "pass" : "fail"}>{g.label ? "pass" : "fail"}</Badge>}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function AssertionVerdictBadge({ v }: { v: AssertionVerdict }) {
  if (v.labelStatus === "labeled") return <Badge tone={v.label ? "pass" : "fail"} title={`by ${v.labelSource}`}>{v.label ? "pass" : "fail"}</Badge>;
  if (v.labelStatus === "errored") return <Badge tone="warn">errored</Badge>;
  if (v.labelStatus === "skipped") return <Badge>skipped</Badge>;
  return <span className="shrink-0 text-zinc-400">not judged</span>;
}
