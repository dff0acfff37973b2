"use client";
// The trace page: metadata and verdicts, the span tree with the span panel beside it on wide screens
// (below it on narrow ones), then assertions, grader labels and the trace's metadata.
import { Link } from "@/components/ui/link.tsx";
import { useEffect, useState } from "react";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { formatDateTime, formatDuration, formatNumber, formatUsd } from "@/components/ui/format.ts";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { JsonViewer } from "@/components/json-viewer.tsx";
import { FaithfulBadge, KindBadge, StatusBadge } from "../trace-badges.tsx";
import { AddToDatasetButton } from "../../_components/add-to-dataset.tsx";
import { TraceLifecycleActions } from "../delete-traces.tsx";
import { SpanPanel } from "./span-panel.tsx";
import { TraceAssertions } from "./trace-assertions.tsx";
import { GraderLabels } from "./grader-labels.tsx";
import { VerdictHistory } from "./verdict-history.tsx";
import { VerdictPanel } from "./verdict-panel.tsx";
import { Waterfall } from "./waterfall.tsx";
import { FactGrid } from "@/components/ui/fact-grid.tsx";
import { useTrace, type TTraceData as TraceData } from "../use-trace.ts";
import { useLiveChanges } from "../use-live-changes.ts";
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react.tsx";

export function TraceView({ id }: { id: string }) {
  const query = useTrace(id);
  const [spanId, setSpanId] = useState<string | null>(null);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Live: a status, a name or spans that change while the page is open are read again (the open span too).
  useLiveChanges({
    traceIds: [id],
    read: query.data?.live,
    readAt: query.dataUpdatedAt,
    watchNewest: false,
    onStale: () => {
      void query.refetch();
      void queryClient.invalidateQueries({ queryKey: trpc.traces.span.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.traces.waterfall.queryKey() });
    },
  });
  // Evidence links open a span: /traces/<id>#span-<spanId> or ?span=<spanId>.
  useEffect(() => {
    const open = () => {
      const linked = /^#span-(.+)$/.exec(window.location.hash)?.[1] ?? new URLSearchParams(window.location.search).get("span");
      if (linked) setSpanId(decodeURIComponent(linked));
    };
    open();
    window.addEventListener("hashchange", open);
    return () => window.removeEventListener("hashchange", open);
  }, []);
  if (query.isPending) return <LoadingState label="Loading trace" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { trace, waterfall } = query.data;
  const selected = spanId ?? waterfall.spans[0]?.id ?? null;
  return (
    <>
      <p className="mb-2 text-xs"><Link href="/traces" className="text-accent-700 dark:text-accent-300 hover:underline">← Traces</Link></p>
      <PageHeader
        title={trace.name || trace.traceFunctionKey || trace.id}
        description={<span className="font-mono text-xs">{trace.id}</span>}
        actions={<><AddToDatasetButton traces={[trace]} /><TraceLifecycleActions traceId={trace.id} /><StatusBadge status={trace.status} /><KindBadge ingestionType={trace.ingestionType} testRunId={trace.testRunId} /><FaithfulBadge faithful={trace.faithful} captureIssues={trace.captureIssues} /></>}
      />
      <div className="space-y-6">
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
          <div className="min-w-0"><Facts data={query.data} /></div>
          <VerdictPanel data={query.data} />
        </div>
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Card aria-label="Spans" className="min-w-0">
            <CardHeader title="Spans" description="Click a span to see its content. Bars show when each span ran within the trace." />
            <Waterfall traceId={trace.id} first={waterfall.spans} total={waterfall.total} totalMs={waterfall.totalMs} selectedId={selected} onSelect={setSpanId} />
          </Card>
          <div className="min-w-0 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto">
            {selected ? <SpanPanel traceId={trace.id} spanId={selected} /> : null}
          </div>
        </div>
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <TraceAssertions data={query.data} />
          <GraderLabels data={query.data} />
          <VerdictHistory traceId={trace.id} />
          {Object.keys(trace.metadata).length > 0 || trace.contexts.length > 0 ? (
            <Card className="min-w-0">
              <CardHeader title="Trace metadata" />
              <div className="space-y-3 p-4">
                <JsonViewer value={trace.metadata} label="Metadata" />
                {trace.contexts.length ? <JsonViewer value={trace.contexts} label="Contexts" /> : null}
              </div>
            </Card>
          ) : null}
        </div>
      </div>
    </>
  );
}

function Facts({ data }: { data: TraceData }) {
  const t = data.trace;
  const facts: [string, React.ReactNode][] = [
    ["Trace function", t.traceFunctionKey ?? "—"],
    ["Started", formatDateTime(t.startedAt)],
    ["Duration", formatDuration(t.durationMs)],
    ["Spans", `${t.spanCount}${t.expectedSpanCount !== null ? ` of ${t.expectedSpanCount} expected` : ""}`],
    ["Tokens", t.tokens ? `${formatNumber(t.tokens.total)} (${formatNumber(t.tokens.input)} in, ${formatNumber(t.tokens.output)} out)` : "—"],
    ["Model", t.model ?? "—"],
    ["Cost", t.costUsd === null ? "—" : formatUsd(t.costUsd)],
    ["Source", sourceOf(data)],
    ...(t.faithful
      ? []
      : [["Faithful", `No: ${t.captureIssues.join(", ")}. Some values were trimmed or not captured exactly, so a replay may not reproduce this trace; replays by limit skip it.`] as [string, React.ReactNode]]),
    ...(t.amendedAt ? [["Amended", `${formatDateTime(t.amendedAt)}: spans arrived after completion; graders ran again`] as [string, React.ReactNode]] : []),
    ["Session", t.sessionId ? <Link key="session" className="break-all text-accent-700 dark:text-accent-300 hover:underline" href={`/traces?session=${encodeURIComponent(t.sessionId)}`}>{t.sessionId}</Link> : "—"],
    ["Replay of", t.originalTraceId ? <Link className="text-accent-700 dark:text-accent-300 hover:underline" href={`/traces/${t.originalTraceId}`}>{t.originalTraceId.slice(0, 8)}…</Link> : "—"],
    ...(t.testRunId ? [["Replay run", <Link key="run" className="text-accent-700 dark:text-accent-300 hover:underline" href={`/replays/${t.testRunId}`}>{t.testRunId.slice(0, 8)}…</Link>] as [string, React.ReactNode]] : []),
  ];
  return (
    <FactGrid facts={facts} />
  );
}

const CONVENTION_NAMES: Record<string, string> = {
  "otel-genai": "GenAI semantic conventions",
  openinference: "OpenInference",
  openllmetry: "OpenLLMetry",
  "vercel-ai": "Vercel AI SDK",
};

/** Where the trace came from: an SDK, or OpenTelemetry with the conventions its spans used (docs/otel.md). */
function sourceOf(data: TraceData): string {
  const source = data.trace.source;
  if (source !== "otel") return source ? `Reprise SDK (${source})` : "Reprise SDK";
  const conventions = [...new Set(data.waterfall.instrumentations.map((i) => CONVENTION_NAMES[i]).filter(Boolean))];
  return `OpenTelemetry${conventions.length ? ` · ${conventions.join(", ")}` : ""}`;
}
