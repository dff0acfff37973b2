"use client";
// The span tree as a collapsible waterfall: type, name, duration, tokens, model, errors,
// mocked and content-off markers, and a bar placing each span in the trace's time line.
import { Fragment, useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { cn } from "@/components/ui/cn.ts";
import { formatDuration, formatNumber } from "@/components/ui/format.ts";
import type { TTraceData } from "../use-trace.ts";

type Span = TTraceData["waterfall"]["spans"][number];

/** Rows left after hiding the descendants of collapsed spans (spans come depth-first with their depth). */
function visibleSpans(spans: Span[], collapsed: Set<string>): Span[] {
  const out: Span[] = [];
  let hideDeeperThan: number | null = null;
  for (const s of spans) {
    if (hideDeeperThan !== null && s.depth > hideDeeperThan) continue;
    hideDeeperThan = collapsed.has(s.id) ? s.depth : null;
    out.push(s);
  }
  return out;
}

/**
 * Rows are rendered a page at a time: a trace of an agent loop can hold 10,000 spans, and rendering them
 * all at once blocks the page for seconds. The next page renders when the end of the list scrolls into
 * view, or from the button.
 */
export const WATERFALL_PAGE = 200;

export function Waterfall({ spans, totalMs, selectedId, onSelect }: { spans: Span[]; totalMs: number; selectedId: string | null; onSelect: (id: string) => void }) {
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [limit, setLimit] = useState(WATERFALL_PAGE);
  const more = useRef<HTMLButtonElement>(null);
  const visible = visibleSpans(spans, collapsed);
  const hidden = visible.length - limit;
  useEffect(() => {
    const button = more.current;
    if (!button || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setLimit((l) => l + WATERFALL_PAGE);
    });
    observer.observe(button);
    return () => observer.disconnect();
  }, [hidden > 0]);
  if (spans.length === 0) return <p className="px-4 py-6 text-sm text-zinc-500">No spans stored for this trace yet.</p>;
  const toggle = (id: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <>
      <ul className="divide-y divide-zinc-50 py-1" aria-label="Span tree">
        {visible.slice(0, limit).map((s) => (
          <WaterfallRow key={s.id} span={s} totalMs={totalMs} selected={s.id === selectedId} collapsed={collapsed.has(s.id)} onToggle={toggle} onSelect={onSelect} />
        ))}
      </ul>
      {hidden > 0 ? (
        <button ref={more} type="button" onClick={() => setLimit((l) => l + WATERFALL_PAGE)} className="w-full px-4 py-2 text-left text-sm text-accent-700 dark:text-accent-300 hover:underline">
          Show {Math.min(hidden, WATERFALL_PAGE)} more of {formatNumber(hidden)} spans
        </button>
      ) : null}
    </>
  );
}

function WaterfallRow({ span: s, totalMs, selected, collapsed, onToggle, onSelect }: { span: Span; totalMs: number; selected: boolean; collapsed: boolean; onToggle: (id: string) => void; onSelect: (id: string) => void }) {
  return (
    // Names are never cut: they wrap. On a phone the timing sits under the name and the indent is halved, so
    // a deep span keeps the row's width for its name.
    <li className={cn("grid grid-cols-1 items-center gap-x-3 gap-y-1 px-4 py-1.5 sm:grid-cols-[minmax(0,1fr)_9rem] xl:grid-cols-[minmax(0,1fr)_10rem]", selected && "bg-accent-50")}
      style={{ "--depth": Math.min(s.depth, 12) } as React.CSSProperties}>
      <div className="flex min-w-0 flex-wrap items-center gap-1.5 pl-[calc(var(--depth)*0.5rem)] sm:pl-[calc(var(--depth)*0.75rem)]">
        {s.childCount > 0 ? (
          <button type="button" aria-expanded={!collapsed} aria-label={`${collapsed ? "Expand" : "Collapse"} ${s.name}`}
            onClick={() => onToggle(s.id)} className="size-5 shrink-0 rounded text-zinc-500 hover:bg-zinc-200">
            {collapsed ? "▸" : "▾"}
          </button>
        ) : <span className="size-5 shrink-0" aria-hidden />}
        <button type="button" aria-pressed={selected} onClick={() => onSelect(s.id)} className="flex min-w-0 flex-1 items-center gap-1.5 text-left">
          <Badge className="shrink-0">{s.type}</Badge>
          <span className="min-w-0 font-medium break-words text-zinc-900 [overflow-wrap:anywhere]" data-span-name title={s.name}>{breakable(s.name)}</span>
        </button>
        <SpanMarkers span={s} />
      </div>
      <div className="pl-[calc(var(--depth)*0.5rem+1.625rem)] text-xs text-zinc-600 sm:pl-0">
        <div className="flex justify-between gap-2 tabular-nums">
          <span>{formatDuration(s.durationMs)}</span>
          <span className="truncate text-zinc-500">{s.tokens ? `${formatNumber(s.tokens.total)} tok` : ""}{s.model ? ` · ${s.model}` : ""}</span>
        </div>
        <Bar span={s} totalMs={totalMs} />
      </div>
    </li>
  );
}

/** The name with a line-break opportunity after each separator (`_`, `.`, `/`, `-`, `:`), so a long name wraps
 * between its words rather than inside one. */
function breakable(name: string): React.ReactNode {
  const parts = name.split(/(?<=[_./:-])/);
  return parts.length === 1 ? name : parts.map((part, i) => <Fragment key={i}>{part}{i < parts.length - 1 ? <wbr /> : null}</Fragment>);
}

function SpanMarkers({ span }: { span: Span }) {
  return (
    <span className="flex shrink-0 items-center gap-1">
      {span.errors?.some((e) => e.source !== "sdk") ? <Badge tone="fail" title={span.errors.map((e) => e.error).join("\n")}>error</Badge> : null}
      {span.errors?.some((e) => e.source === "sdk") ? <Badge tone="warn" title="The SDK noted a capture problem (e.g. trimmed payload)">capture note</Badge> : null}
      {span.mocked ? <Badge tone="accent" title="Served from the recorded output during replay">mocked</Badge> : null}
      {span.contentOff ? <Badge title="The sim plan turned content capture off for this node">content off</Badge> : null}
      {!span.final ? <Badge tone="warn" title="Only the start of this span has arrived">running</Badge> : null}
    </span>
  );
}

function Bar({ span, totalMs }: { span: Span; totalMs: number }) {
  if (span.offsetMs === null || totalMs <= 0) return <div className="mt-1 h-1.5 rounded bg-zinc-100" />;
  const left = (span.offsetMs / totalMs) * 100;
  const width = Math.max(0.8, ((span.durationMs ?? 0) / totalMs) * 100);
  return (
    <div className="relative mt-1 h-1.5 rounded bg-zinc-100" aria-hidden>
      <div className={cn("absolute h-1.5 rounded", span.errors ? "bg-red-400" : "bg-accent-500")} style={{ left: `${Math.min(left, 99)}%`, width: `${Math.min(width, 100 - Math.min(left, 99))}%` }} />
    </div>
  );
}
