"use client";
// The span tree as a collapsible waterfall: type, name, duration, tokens, model, errors,
// mocked and content-off markers, and a bar placing each span in the trace's time line. The tree comes from
// the server a window at a time (docs/api/console.md, "Trace page"): a trace of an agent loop can hold
// 100,000 spans, more than the server or the page should hold at once.
import { Fragment, useEffect, useMemo, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Input } from "@/components/ui/field.tsx";
import { formatDuration, formatNumber } from "@/components/ui/format.ts";
import { useTRPC } from "@/components/trpc/react.tsx";
import { fromJsonText } from "@/server/trpc/json-text.ts";
import type { TTraceData } from "../use-trace.ts";

type Span = TTraceData["waterfall"]["spans"][number];

/**
 * Rows are rendered a page at a time: rendering thousands at once blocks the page for seconds. The next page
 * renders when the end of the list scrolls into view, or from the button; rows not read yet are read a window
 * (WATERFALL_WINDOW rows) at a time.
 */
export const WATERFALL_PAGE = 200;
const WATERFALL_WINDOW = 500;

/** A collapsed span's place: its subtree's rows, index + 1 … index + descendants, are hidden. */
type Collapsed = Map<string, { index: number; descendants: number }>;

/**
 * The rows shown from `start`, at most `limit`, skipping collapsed subtrees; `missing` is the first row to show
 * that is not read yet, and `after` how many rows would show past the last one (collapsed subtrees left out).
 */
function walk(rowAt: (i: number) => Span | undefined, total: number, start: number, limit: number, collapsed: Collapsed) {
  const rows: Span[] = [];
  let i = start;
  let missing: number | null = null;
  while (rows.length < limit && i < total) {
    const row = rowAt(i);
    if (!row) {
      missing = i;
      break;
    }
    rows.push(row);
    i += collapsed.has(row.id) ? row.descendants + 1 : 1;
  }
  let hidden = 0;
  let coveredTo = i - 1;
  for (const c of [...collapsed.values()].sort((a, b) => a.index - b.index)) {
    if (c.index < i || c.index <= coveredTo) continue;
    hidden += c.descendants;
    coveredTo = c.index + c.descendants;
  }
  return { rows, missing, after: Math.max(0, total - i - hidden) };
}

export function Waterfall({ traceId, first, total, totalMs, selectedId, onSelect }: { traceId: string; first: Span[]; total: number; totalMs: number; selectedId: string | null; onSelect: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [collapsed, setCollapsed] = useState<Collapsed>(new Map());
  const [limit, setLimit] = useState(WATERFALL_PAGE);
  /** Where the rows start: 0, or a span a search jumped to. */
  const [start, setStart] = useState(0);
  // Windows read past the first; a new first window (a live read of the trace) drops them, as they may be stale.
  const [read, setRead] = useState<{ of: Span[]; rows: Map<number, Span> }>({ of: first, rows: new Map() });
  const [failed, setFailed] = useState<Error | null>(null);
  const [attempt, setAttempt] = useState(0);
  const firstByIndex = useMemo(() => new Map(first.map((s) => [s.index, s])), [first]);
  const extra = read.of === first ? read.rows : null;
  const more = useRef<HTMLButtonElement>(null);
  const { rows: visible, missing, after } = walk((i) => firstByIndex.get(i) ?? extra?.get(i), total, start, limit, collapsed);
  useEffect(() => {
    if (missing === null) return;
    let cancelled = false;
    queryClient.fetchQuery(trpc.traces.waterfall.queryOptions({ traceId, offset: missing, limit: WATERFALL_WINDOW })).then((window) => {
      if (cancelled) return;
      const spans = fromJsonText(window.spans);
      // A span deleted since the tree was read leaves a gap the page cannot fill: its next live read starts over.
      if (!spans.some((s) => s.index === missing)) return setFailed(new Error("the trace changed while it was read"));
      setFailed(null);
      setRead((r) => {
        const rows = new Map(r.of === first ? r.rows : []);
        for (const s of spans) rows.set(s.index, s);
        return { of: first, rows };
      });
    }, (error: Error) => !cancelled && setFailed(error));
    return () => {
      cancelled = true;
    };
  }, [missing, first, traceId, queryClient, trpc, attempt]);
  const hasMore = after > 0 && missing === null;
  useEffect(() => {
    const button = more.current;
    if (!button || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setLimit((l) => l + WATERFALL_PAGE);
    });
    observer.observe(button);
    return () => observer.disconnect();
  }, [hasMore]);
  if (total === 0) return <p className="px-4 py-6 text-sm text-zinc-500">No spans stored for this trace yet.</p>;
  const toggle = (span: Span) =>
    setCollapsed((c) => {
      const next = new Map(c);
      if (next.has(span.id)) next.delete(span.id);
      else next.set(span.id, { index: span.index, descendants: span.descendants });
      return next;
    });
  const jump = (match: { id: string; index: number; ancestorIds: string[] }) => {
    setCollapsed((c) => {
      const next = new Map(c);
      for (const id of match.ancestorIds) next.delete(id);
      return next;
    });
    setStart(match.index);
    setLimit(WATERFALL_PAGE);
    onSelect(match.id);
  };
  return (
    <>
      {total > WATERFALL_PAGE ? <SpanSearch traceId={traceId} onPick={jump} /> : null}
      {start > 0 ? (
        <button type="button" onClick={() => { setStart(0); setLimit(WATERFALL_PAGE); }} className="w-full px-4 py-2 text-left text-sm text-accent-700 dark:text-accent-300 hover:underline">
          Showing from span {formatNumber(start + 1)} of {formatNumber(total)}: show from the first span
        </button>
      ) : null}
      <ul className="divide-y divide-zinc-50 py-1" aria-label="Span tree">
        {visible.map((s) => (
          <WaterfallRow key={s.id} span={s} totalMs={totalMs} selected={s.id === selectedId} collapsed={collapsed.has(s.id)} onToggle={toggle} onSelect={onSelect} />
        ))}
      </ul>
      {missing !== null ? (
        failed ? (
          <button type="button" onClick={() => { setFailed(null); setAttempt((a) => a + 1); }} className="w-full px-4 py-2 text-left text-sm text-red-700 dark:text-red-300 hover:underline">
            Could not read more spans ({failed.message}). Try again
          </button>
        ) : (
          <p className="px-4 py-2 text-sm text-zinc-500" role="status">Reading spans…</p>
        )
      ) : hasMore ? (
        <button ref={more} type="button" onClick={() => setLimit((l) => l + WATERFALL_PAGE)} className="w-full px-4 py-2 text-left text-sm text-accent-700 dark:text-accent-300 hover:underline">
          Show {Math.min(after, WATERFALL_PAGE)} more of {formatNumber(after)} spans
        </button>
      ) : null}
    </>
  );
}

/** Finds spans by name or type on the server (a trace can hold more spans than the page reads); a pick shows it. */
function SpanSearch({ traceId, onPick }: { traceId: string; onPick: (match: { id: string; index: number; ancestorIds: string[] }) => void }) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState("");
  const [text, setText] = useState("");
  const query = useQuery({ ...trpc.traces.searchSpans.queryOptions({ traceId, text }), enabled: text !== "" });
  return (
    <div className="border-b border-zinc-100 px-4 py-2">
      <form role="search" onSubmit={(e) => { e.preventDefault(); setText(draft.trim()); }}>
        <Input type="search" aria-label="Search spans" placeholder="Find spans by name or type" value={draft} onChange={(e) => setDraft(e.target.value)} />
      </form>
      {text === "" ? null : query.isPending ? (
        <p className="pt-2 text-sm text-zinc-500">Searching…</p>
      ) : query.isError ? (
        <p className="pt-2 text-sm text-red-700 dark:text-red-300">{query.error.message}</p>
      ) : query.data.matches.length === 0 ? (
        <p className="pt-2 text-sm text-zinc-500">No span&apos;s name or type contains “{text}”.</p>
      ) : (
        <ul aria-label="Spans found" className="max-h-48 overflow-y-auto pt-2 text-sm">
          {query.data.matches.map((m) => (
            <li key={m.id}>
              <button type="button" onClick={() => onPick(m)} className="flex w-full items-center gap-1.5 rounded px-1 py-0.5 text-left hover:bg-zinc-100">
                <Badge className="shrink-0">{m.type}</Badge>
                <span className="min-w-0 break-words [overflow-wrap:anywhere]">{m.name}</span>
                <span className="ml-auto shrink-0 text-xs text-zinc-500 tabular-nums">#{formatNumber(m.index + 1)}</span>
              </button>
            </li>
          ))}
          {query.data.more ? <li className="px-1 py-0.5 text-xs text-zinc-500">The first {query.data.matches.length} in tree order; narrow the search for others.</li> : null}
        </ul>
      )}
    </div>
  );
}

function WaterfallRow({ span: s, totalMs, selected, collapsed, onToggle, onSelect }: { span: Span; totalMs: number; selected: boolean; collapsed: boolean; onToggle: (span: Span) => void; onSelect: (id: string) => void }) {
  return (
    // Names are never cut: they wrap. On a phone the timing sits under the name and the indent is halved, so
    // a deep span keeps the row's width for its name.
    <li className={cn("grid grid-cols-1 items-center gap-x-3 gap-y-1 px-4 py-1.5 sm:grid-cols-[minmax(0,1fr)_9rem] xl:grid-cols-[minmax(0,1fr)_10rem]", selected && "bg-accent-50")}
      style={{ "--depth": Math.min(s.depth, 12) } as React.CSSProperties}>
      <div className="flex min-w-0 flex-wrap items-center gap-1.5 pl-[calc(var(--depth)*0.5rem)] sm:pl-[calc(var(--depth)*0.75rem)]">
        {s.childCount > 0 ? (
          <button type="button" aria-expanded={!collapsed} aria-label={`${collapsed ? "Expand" : "Collapse"} ${s.name}`}
            onClick={() => onToggle(s)} className="size-5 shrink-0 rounded text-zinc-500 hover:bg-zinc-200">
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
