"use client";
// The trace list: filters and the page kept in the URL (the cursors of the pages before this one, so a
// reload or a shared link shows the same page), a total count, input/output previews, and the labelling
// queue over everything the filter matches.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { formatDateTime, formatDuration, formatNumber, formatRelative, formatUsd } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { Dialog } from "@/components/ui/dialog.tsx";
import { AddToDatasetButton } from "../_components/add-to-dataset.tsx";
import { ReplayCard } from "../_components/replay-card.tsx";
import { FirstTraceGuide } from "../_components/first-trace-guide.tsx";
import { filterQuery, KINDS, LABEL_STATES, readFilters, STATUSES } from "./trace-filters.ts";
import { ExportButton } from "./export-button.tsx";
import { FaithfulBadge, KindBadge, StatusBadge, VerdictBadge } from "./trace-badges.tsx";
import { useLiveChanges } from "./use-live-changes.ts";
import { DeleteMatchingButton } from "./delete-traces.tsx";

/** `<input type="datetime-local">` shows local time without a zone; the URL and the API keep ISO instants. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const PAGE = 25;

export function TracesList() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = readFilters(params);
  // The cursors of the pages before this one ("." never occurs in a base64url cursor).
  const cursors = (params.get("c") ?? "").split(".").filter(Boolean);
  const cursor = cursors.at(-1);
  const keys = useQuery(trpc.traces.functionKeys.queryOptions());
  const list = useQuery({ ...trpc.traces.list.queryOptions({ ...filters, cursor, limit: PAGE }), placeholderData: keepPreviousData });

  // Live: new traces (on the first page) and changes to the traces shown are read without a reload, and the
  // new ones are announced.
  const [announced, setAnnounced] = useState("");
  const shown = useRef<Set<string>>(new Set());
  shown.current = new Set(list.data?.traces.map((t) => t.id));
  useLiveChanges({
    traceIds: list.data?.traces.map((t) => t.id) ?? [],
    read: list.isPlaceholderData ? undefined : list.data?.live,
    readAt: list.dataUpdatedAt,
    watchNewest: cursors.length === 0,
    onStale: () => {
      const before = shown.current;
      void list.refetch().then((r) => {
        const added = r.data?.traces.filter((t) => !before.has(t.id)).length ?? 0;
        setAnnounced(added ? `${added} new trace${added === 1 ? "" : "s"}` : "");
      });
    },
  });

  const go = (next: URLSearchParams, push = false) => (push ? router.push : router.replace)(`${pathname}?${next.toString()}`);
  const setCursors = (stack: string[]) => {
    const next = new URLSearchParams(params);
    if (stack.length) next.set("c", stack.join("."));
    else next.delete("c");
    go(next, true);
  };
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete("c");
    go(next);
  };
  const queueHref = `/traces/queue${filterQuery(params) ? `?${filterQuery(params)}` : ""}`;
  const filtered = Object.values(filters).some(Boolean);
  // While a date-time is half typed the input's value is "" with badInput set: keep the filter until it is whole.
  const setInstant = (key: string, input: HTMLInputElement) => {
    if (input.value) setFilter(key, new Date(input.value).toISOString());
    else if (!input.validity.badInput) setFilter(key, "");
  };
  const [resetKey, setResetKey] = useState(0);
  const first = cursors.length * PAGE;
  // The multi-select: traces ticked on any page, kept until added or cleared.
  const [selected, setSelected] = useState<Map<string, Row>>(new Map());

  return (
    <div className="space-y-4">
      <div key={resetKey} className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter traces">
        <label className="w-full text-xs sm:w-64 font-medium text-zinc-600">
          Search
          <Input className="mt-1" type="search" defaultValue={filters.search ?? ""} placeholder="Title, session id, input or output"
            onKeyDown={(e) => { if (e.key === "Enter") setFilter("q", e.currentTarget.value.trim()); }}
            onBlur={(e) => { if (e.currentTarget.value.trim() !== (filters.search ?? "")) setFilter("q", e.currentTarget.value.trim()); }} />
        </label>
        <label className="w-full text-xs sm:w-56 font-medium text-zinc-600">
          Trace function
          <Select className="mt-1" value={filters.traceFunctionKey ?? ""} onChange={(e) => setFilter("fn", e.target.value)}>
            <option value="">All</option>
            {(keys.data ?? []).map((k) => <option key={k} value={k}>{k}</option>)}
          </Select>
        </label>
        <label className="w-full text-xs sm:w-40 font-medium text-zinc-600">
          Status
          <Select className="mt-1" value={filters.status ?? ""} onChange={(e) => setFilter("status", e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </Select>
        </label>
        <label className="w-full text-xs sm:w-44 font-medium text-zinc-600">
          Verdict
          <Select className="mt-1" value={filters.labelState ?? ""} onChange={(e) => setFilter("label", e.target.value)}>
            <option value="">Any</option>
            {LABEL_STATES.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </Select>
        </label>
        <label className="w-full text-xs sm:w-36 font-medium text-zinc-600">
          Kind
          <Select className="mt-1" value={filters.kind ?? ""} onChange={(e) => setFilter("kind", e.target.value)}>
            <option value="">Any</option>
            {KINDS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </Select>
        </label>
        <label className="w-full text-xs sm:w-52 font-medium text-zinc-600">
          Started from
          <Input className="mt-1" type="datetime-local" defaultValue={toLocalInput(filters.startedFrom)} onChange={(e) => setInstant("from", e.currentTarget)} />
        </label>
        <label className="w-full text-xs sm:w-52 font-medium text-zinc-600">
          Started before
          <Input className="mt-1" type="datetime-local" defaultValue={toLocalInput(filters.startedTo)} onChange={(e) => setInstant("to", e.currentTarget)} />
        </label>
        {filters.kind === undefined ? (
          <label className="flex h-9 items-center gap-2 text-xs font-medium text-zinc-600">
            <input type="checkbox" defaultChecked={filters.includeReplays} onChange={(e) => setFilter("replays", e.target.checked ? "1" : "")} />
            Include replays
          </label>
        ) : null}
        <label className="w-full text-xs sm:w-32 font-medium text-zinc-600">
          Min cost (USD)
          <Input className="mt-1" type="number" min="0" step="any" defaultValue={filters.minCostUsd ?? ""}
            onBlur={(e) => setFilter("minCost", e.currentTarget.value)} onKeyDown={(e) => { if (e.key === "Enter") setFilter("minCost", e.currentTarget.value); }} />
        </label>
        <DashboardFilters params={params} onClear={setFilter} />
        {filters.sessionId ? (
          <p className="flex h-9 items-center gap-1 text-xs text-zinc-700">
            Session <code className="max-w-48 truncate rounded bg-zinc-100 px-1.5 py-0.5">{filters.sessionId}</code>
            <Button variant="ghost" size="sm" aria-label="Show every session" onClick={() => setFilter("session", "")}>×</Button>
          </p>
        ) : null}
        {filtered ? <Button variant="ghost" onClick={() => { setResetKey((k) => k + 1); router.replace(pathname); }}>Clear filters</Button> : null}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-zinc-600" aria-live="polite" data-testid="trace-count">
          {list.data ? (list.data.total === 0 ? "No traces" : `${formatNumber(first + 1)}–${formatNumber(first + list.data.traces.length)} of ${formatNumber(list.data.total)} trace${list.data.total === 1 ? "" : "s"}`) : "\u00a0"}
        </p>
        <p role="status" className="mr-auto text-sm font-medium text-accent-700 dark:text-accent-300">{announced}</p>
        {list.data && list.data.total > 0 ? <ExportButton filters={filters} total={list.data.total} /> : null}
        {list.data && list.data.total > 0 && filtered ? <DeleteMatchingButton filter={filters} /> : null}
        {list.data && list.data.total > 0 ? (
          <Link href={queueHref} className="inline-flex h-9 items-center rounded-md bg-accent-600 px-3.5 text-sm font-medium text-on-accent hover:bg-accent-700">
            Label these {formatNumber(list.data.total)} in a queue
          </Link>
        ) : null}
      </div>
      <Card>
        {list.isPending ? <LoadingState label="Loading traces" /> : list.isError ? <ErrorState error={list.error} onRetry={() => list.refetch()} /> :
          list.data.traces.length === 0 ? (filtered ? <EmptyState title="No traces match these filters">Clear a filter to see more.</EmptyState> : <FirstTraceGuide />) : (
          <TraceTable rows={list.data.traces} selected={selected} onSelect={setSelected} />
        )}
      </Card>
      {selected.size > 0 ? (
        <div role="region" aria-label="Selection" className="flex flex-wrap items-center gap-2 text-sm text-zinc-700">
          <span>{selected.size} selected</span>
          <AddToDatasetButton traces={[...selected.values()]} label={`Add ${selected.size} to dataset`} />
          <ReplaySelectedButton traces={[...selected.values()]} />
          <Button variant="ghost" size="sm" onClick={() => setSelected(new Map())}>Clear selection</Button>
        </div>
      ) : null}
      <nav aria-label="Pages" className="flex items-center justify-end gap-2">
        <span className="text-xs text-zinc-500">Page {cursors.length + 1}</span>
        <Button variant="secondary" size="sm" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>Newer</Button>
        <Button variant="secondary" size="sm" disabled={!list.data?.nextCursor} onClick={() => list.data?.nextCursor && setCursors([...cursors, list.data.nextCursor])}>Older</Button>
      </nav>
    </div>
  );
}

type Row = RouterOutputs["traces"]["list"]["traces"][number];

/** The filters a dashboard figure opens the list with, each shown and removable (docs/dashboard.md). */
function DashboardFilters({ params, onClear }: { params: URLSearchParams; onClear: (key: string, value: string) => void }) {
  const shown = [
    ["model", "Model"],
    ["grader", "Grader"],
    ["graderLabel", "Grader label"],
    ["graderCategory", "Grader category"],
    ["verdictSource", "Verdict by"],
    ["run", "Experiment"],
  ] as const;
  return (
    <>
      {shown.map(([key, label]) => {
        const value = params.get(key);
        if (!value) return null;
        return (
          <p key={key} className="flex h-9 items-center gap-1 text-xs text-zinc-700">
            {label} <code className="max-w-48 truncate rounded bg-zinc-100 px-1.5 py-0.5">{value}</code>
            <Button variant="ghost" size="sm" aria-label={`Remove the ${label.toLowerCase()} filter`} onClick={() => onClear(key, "")}>×</Button>
          </p>
        );
      })}
    </>
  );
}

/** A replay of the selected traces: the SDK call to run with their ids, followed once it starts. */
function ReplaySelectedButton({ traces }: { traces: Row[] }) {
  const [open, setOpen] = useState(false);
  const keys = [...new Set(traces.map((t) => t.traceFunctionKey))];
  const key = keys.length === 1 ? keys[0] : null;
  const why = !key ? "Select traces of one trace function to replay them together." : traces.length > 100 ? "A replay takes at most 100 traces." : null;
  return (
    <>
      <Button variant="secondary" size="sm" disabled={why !== null} onClick={() => setOpen(true)}>Replay {traces.length} selected</Button>
      {why ? <span className="text-xs text-zinc-500">{why}</span> : null}
      {key && !why ? (
        <Dialog open={open} onOpenChange={setOpen} title="Replay the selected traces">
          <ReplayCard title="Replay selected traces" traceFunctionKey={key} selection={{ traceIds: traces.map((t) => t.id) }} />
        </Dialog>
      ) : null}
    </>
  );
}

function title(t: Row) {
  return t.name || t.traceFunctionKey || t.id;
}

/** The function key under the title, unless the title already is it. */
function subtitle(t: Row) {
  return t.name && t.traceFunctionKey && t.name !== t.traceFunctionKey ? t.traceFunctionKey : null;
}

function Preview({ t }: { t: Row }) {
  if (!t.preview || (t.preview.input === null && t.preview.output === null)) return null;
  return (
    <span className="mt-0.5 block space-y-0.5 text-xs text-zinc-600">
      {t.preview.input !== null ? <span className="block truncate"><span className="text-zinc-400">in </span>{t.preview.input}</span> : null}
      {t.preview.output !== null ? <span className="block truncate"><span className="text-zinc-400">out </span>{t.preview.output}</span> : null}
    </span>
  );
}

function TraceTable({ rows, selected, onSelect }: { rows: Row[]; selected: Map<string, Row>; onSelect: (next: Map<string, Row>) => void }) {
  const toggle = (row: Row) => {
    const next = new Map(selected);
    if (next.has(row.id)) next.delete(row.id);
    else next.set(row.id, row);
    onSelect(next);
  };
  const select = (t: Row) => (
    <input type="checkbox" checked={selected.has(t.id)} onChange={() => toggle(t)} aria-label={`Select ${title(t)} (${t.id.slice(0, 8)})`} />
  );
  return (
    <>
      <ul className="divide-y divide-zinc-100 md:hidden" aria-label="Traces">
        {rows.map((t) => (
          <li key={t.id} className="min-w-0 space-y-1 px-4 py-3">
            <span className="flex min-w-0 items-center gap-2">
              {select(t)}
              <Link href={`/traces/${t.id}`} className="block truncate font-medium text-accent-700 dark:text-accent-300 hover:underline">{title(t)}</Link>
            </span>
            {subtitle(t) ? <span className="block truncate text-xs text-zinc-500">{subtitle(t)}</span> : null}
            <Preview t={t} />
            <span className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-600">
              <StatusBadge status={t.status} />
              <KindBadge ingestionType={t.ingestionType} testRunId={t.testRunId} />
              <VerdictBadge verdict={t.verdict} />
              <span title={formatDateTime(t.startedAt)}>{formatRelative(t.startedAt)}</span>
              <span>· {formatDuration(t.durationMs)}</span>
              {t.costUsd !== null ? <span>· {formatUsd(t.costUsd)}</span> : null}
            </span>
          </li>
        ))}
      </ul>
      <table className="hidden w-full table-fixed text-left text-sm md:table">
        <thead className="border-b border-zinc-100 text-xs text-zinc-500">
          <tr>
            <th scope="col" className="w-8 py-2 pl-4"><span className="sr-only">Select</span></th>
            <th scope="col" className="px-4 py-2 font-medium">Trace</th>
            <th scope="col" className="w-24 px-3 py-2 font-medium">Status</th>
            <th scope="col" className="w-28 px-3 py-2 font-medium">Kind</th>
            <th scope="col" className="hidden w-16 px-3 py-2 text-right font-medium xl:table-cell">Spans</th>
            <th scope="col" className="w-20 px-3 py-2 text-right font-medium">Duration</th>
            <th scope="col" className="hidden w-20 px-3 py-2 text-right font-medium xl:table-cell">Tokens</th>
            <th scope="col" className="w-24 px-3 py-2 text-right font-medium">Cost</th>
            <th scope="col" className="w-36 px-3 py-2 font-medium">Verdict</th>
            <th scope="col" className="w-28 px-4 py-2 font-medium">Started</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((t) => (
            <tr key={t.id} className="align-top hover:bg-zinc-50">
              <td className="py-2 pl-4">{select(t)}</td>
              <td className="min-w-0 px-4 py-2">
                <Link href={`/traces/${t.id}`} className="block truncate font-medium text-accent-700 dark:text-accent-300 hover:underline">{title(t)}</Link>
                {subtitle(t) ? <span className="block truncate text-xs text-zinc-500">{subtitle(t)}</span> : null}
                <Preview t={t} />
              </td>
              <td className="px-3 py-2"><StatusBadge status={t.status} /></td>
              <td className="px-3 py-2">
                <span className="inline-flex flex-wrap items-center gap-1">
                  <KindBadge ingestionType={t.ingestionType} testRunId={t.testRunId} />
                  <FaithfulBadge faithful={t.faithful} captureIssues={t.captureIssues} />
                </span>
              </td>
              <td className="hidden px-3 py-2 text-right tabular-nums xl:table-cell">{t.spanCount}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatDuration(t.durationMs)}</td>
              <td className="hidden px-3 py-2 text-right tabular-nums xl:table-cell">{formatNumber(t.tokens?.total)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatUsd(t.costUsd)}</td>
              <td className="px-3 py-2"><VerdictBadge verdict={t.verdict} /></td>
              <td className="px-4 py-2 text-zinc-600" title={formatDateTime(t.startedAt)}>{formatRelative(t.startedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
