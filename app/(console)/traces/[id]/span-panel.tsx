"use client";
// The span panel: input, output and prompt (chat view for LLM messages, JSON tree, raw JSON with copy),
// contexts, errors and the SDK's superjson meta (content is rendered as text, never as HTML).
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { JsonViewer } from "@/components/json-viewer.tsx";
import { PayloadView } from "@/components/payload-view.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

export function SpanPanel({ traceId, spanId }: { traceId: string; spanId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.traces.span.queryOptions({ traceId, spanId }));
  if (query.isPending) return <Card><LoadingState label="Loading span" /></Card>;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { span, inputMeta, outputMeta, openTelemetry: otel } = query.data;
  const contentOff = span.metadata.contentOffBySimulationPlan === true;
  return (
    <Card aria-label={`Span ${span.name}`}>
      <CardHeader title={<>Span: {span.name}</>} description={<span className="font-mono">{span.id}</span>} actions={<Badge>{span.type}</Badge>} />
      <div className="space-y-4 p-4">
        {contentOff ? <p className="rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">The sim plan turned content capture off for this node: input and output were not recorded.</p> : null}
        {otel?.ioFrom && (otel.ioFrom.input || otel.ioFrom.output) ? (
          <p className="rounded-md bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
            This root span recorded no {otel.ioFrom.input && otel.ioFrom.output ? "input or output" : otel.ioFrom.input ? "input" : "output"}: the trace&apos;s own are taken from its first and last LLM spans, so graders and judges read them here.
          </p>
        ) : null}
        {otel?.systemInstructions ? <Section title="System instructions"><JsonViewer value={otel.systemInstructions} label="System instructions" /></Section> : null}
        <Section title="Input"><PayloadView value={span.input} label="Span input" /></Section>
        <Section title="Output"><PayloadView value={span.output} label="Span output" /></Section>
        {span.errors ? <Section title="Errors"><JsonViewer value={span.errors} label="Span errors" /></Section> : null}
        {span.contexts.length ? <Section title="Contexts"><JsonViewer value={span.contexts} label="Span contexts" /></Section> : null}
        {span.prompt ? <Section title="Prompt"><PayloadView value={promptValue(span.prompt)} label="Span prompt" /></Section> : null}
        {inputMeta || outputMeta ? (
          <Section title="Type meta (superjson)">
            <JsonViewer value={{ input: inputMeta, output: outputMeta }} label="Type meta" initiallyOpenDepth={1} />
          </Section>
        ) : null}
        {otel?.tools ? <Section title="Tool definitions"><JsonViewer value={otel.tools} label="Tool definitions" /></Section> : null}
        {otel ? (
          <Section title="OpenTelemetry">
            <JsonViewer value={{ attributes: otel.attributes, events: otel.events, status: otel.status }} label="OpenTelemetry attributes and events" initiallyOpenDepth={1} />
          </Section>
        ) : null}
        <Section title="Details"><JsonViewer value={{ ...span.metadata, metrics: span.metrics, startedAt: span.startedAt, endedAt: span.endedAt }} label="Span details" initiallyOpenDepth={1} /></Section>
      </div>
    </Card>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section>
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{title}</h3>
      {children}
    </section>
  );
}

/** A prompt is stored as text; one that is JSON (a messages array, a template object) shows as that value. */
function promptValue(prompt: string): unknown {
  const t = prompt.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return prompt;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return prompt;
  }
}
