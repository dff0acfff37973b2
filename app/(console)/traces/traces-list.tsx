"use client";
// The trace list: filters kept in the URL, cursor paging, and the ids of the page saved
// as the labelling queue the trace page walks with its "next" shortcut.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { formatDateTime, formatDuration, formatNumber, formatRelative } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { FirstTraceGuide } from "../_components/first-trace-guide.tsx";
import { saveQueue } from "./queue.ts";
import { FaithfulBadge, KindBadge, StatusBadge, VerdictBadge } from "./trace-badges.tsx";

const STATUSES = ["completed", "pending", "failed"] as const;
const LABEL_STATES = [["unlabeled", "Unlabeled"], ["pass", "Labeled pass"], ["fail", "Labeled fail"], ["validated", "Validated (approved)"]] as const;
const KINDS = [["captured", "Captured"], ["seeded", "Seeded"], ["replay", "Replay"]] as const;

function oneOf<T extends string>(value: string | null, values: readonly T[]): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** An ISO instant from the URL, or undefined when it is not one (a hand-edited URL must not break the page). */
function instant(value: string | null): string | undefined {
  return value && !Number.isNaN(Date.parse(value)) && /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(value) ? value : undefined;
}

/** `<input type="datetime-local">` shows local time without a zone; the URL and the API keep ISO instants. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function TracesList() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = {
    traceFunctionKey: params.get("fn") || undefined,
    status: oneOf(params.get("status"), STATUSES),
    search: params.get("q") || undefined,
    labelState: oneOf(params.get("label"), LABEL_STATES.map(([v]) => v)),
    kind: oneOf(params.get("kind"), KINDS.map(([v]) => v)),
    startedFrom: instant(params.get("from")),
    startedTo: instant(params.get("to")),
  };
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const keys = useQuery(trpc.traces.functionKeys.queryOptions());
  const list = useQuery({ ...trpc.traces.list.queryOptions({ ...filters, cursor, limit: 25 }), placeholderData: keepPreviousData });

  useEffect(() => {
    if (list.data) saveQueue(list.data.traces.map((t) => t.id));
  }, [list.data]);

  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setCursors([]);
    router.replace(`${pathname}?${next.toString()}`);
  };
  const filtered = Object.values(filters).some(Boolean);
  // While a date-time is half typed the input's value is "" with badInput set: keep the filter until it is whole.
  const setInstant = (key: string, input: HTMLInputElement) => {
    if (input.value) setFilter(key, new Date(input.value).toISOString());
    else if (!input.validity.badInput) setFilter(key, "");
  };
  const [resetKey, setResetKey] = useState(0);

  return (
    <div className="space-y-4">
      <div key={resetKey} className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter traces">
        <label className="w-64 text-xs font-medium text-zinc-600">
          Search titles
          <Input className="mt-1" type="search" defaultValue={filters.search ?? ""} placeholder="Name or trace function"
            onKeyDown={(e) => { if (e.key === "Enter") setFilter("q", e.currentTarget.value.trim()); }}
            onBlur={(e) => { if (e.currentTarget.value.trim() !== (filters.search ?? "")) setFilter("q", e.currentTarget.value.trim()); }} />
        </label>
        <label className="w-56 text-xs font-medium text-zinc-600">
          Trace function
          <Select className="mt-1" value={filters.traceFunctionKey ?? ""} onChange={(e) => setFilter("fn", e.target.value)}>
            <option value="">All</option>
            {(keys.data ?? []).map((k) => <option key={k} value={k}>{k}</option>)}
          </Select>
        </label>
        <label className="w-40 text-xs font-medium text-zinc-600">
          Status
          <Select className="mt-1" value={filters.status ?? ""} onChange={(e) => setFilter("status", e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </Select>
        </label>
        <label className="w-44 text-xs font-medium text-zinc-600">
          Verdict
          <Select className="mt-1" value={filters.labelState ?? ""} onChange={(e) => setFilter("label", e.target.value)}>
            <option value="">Any</option>
            {LABEL_STATES.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </Select>
        </label>
        <label className="w-36 text-xs font-medium text-zinc-600">
          Kind
          <Select className="mt-1" value={filters.kind ?? ""} onChange={(e) => setFilter("kind", e.target.value)}>
            <option value="">Any</option>
            {KINDS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </Select>
        </label>
        <label className="w-52 text-xs font-medium text-zinc-600">
          Started from
          <Input className="mt-1" type="datetime-local" defaultValue={toLocalInput(filters.startedFrom)} onChange={(e) => setInstant("from", e.currentTarget)} />
        </label>
        <label className="w-52 text-xs font-medium text-zinc-600">
          Started before
          <Input className="mt-1" type="datetime-local" defaultValue={toLocalInput(filters.startedTo)} onChange={(e) => setInstant("to", e.currentTarget)} />
        </label>
        {filtered ? <Button variant="ghost" onClick={() => { setCursors([]); setResetKey((k) => k + 1); router.replace(pathname); }}>Clear filters</Button> : null}
      </div>
      <Card>
        {list.isPending ? <LoadingState label="Loading traces" /> : list.isError ? <ErrorState error={list.error} onRetry={() => list.refetch()} /> :
          list.data.traces.length === 0 ? (filtered ? <EmptyState title="No traces match these filters">Clear a filter to see more.</EmptyState> : <FirstTraceGuide />) : (
          <TraceTable rows={list.data.traces} />
        )}
      </Card>
      <nav aria-label="Pages" className="flex items-center justify-end gap-2">
        <Button variant="secondary" size="sm" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>Newer</Button>
        <Button variant="secondary" size="sm" disabled={!list.data?.nextCursor} onClick={() => list.data?.nextCursor && setCursors((c) => [...c, list.data.nextCursor!])}>Older</Button>
      </nav>
    </div>
  );
}

type Row = RouterOutputs["traces"]["list"]["traces"][number];

function TraceTable({ rows }: { rows: Row[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-100 text-xs text-zinc-500">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">Trace</th>
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <th scope="col" className="px-3 py-2 font-medium">Kind</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Spans</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Duration</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Tokens</th>
            <th scope="col" className="px-3 py-2 font-medium">Verdict</th>
            <th scope="col" className="px-4 py-2 font-medium">Started</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((t) => (
            <tr key={t.id} className="hover:bg-zinc-50">
              <td className="max-w-80 px-4 py-2">
                <Link href={`/traces/${t.id}`} className="block truncate font-medium text-accent-700 hover:underline">
                  {t.name || t.traceFunctionKey || t.id}
                </Link>
                {t.name && t.traceFunctionKey ? <span className="block truncate text-xs text-zinc-500">{t.traceFunctionKey}</span> : null}
              </td>
              <td className="px-3 py-2"><StatusBadge status={t.status} /></td>
              <td className="px-3 py-2">
                <span className="inline-flex items-center gap-1">
                  <KindBadge ingestionType={t.ingestionType} testRunId={t.testRunId} />
                  <FaithfulBadge faithful={t.faithful} captureIssues={t.captureIssues} />
                </span>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{t.spanCount}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatDuration(t.durationMs)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatNumber(t.tokens?.total)}</td>
              <td className="px-3 py-2"><VerdictBadge verdict={t.verdict} /></td>
              <td className="px-4 py-2 text-zinc-600" title={formatDateTime(t.startedAt)}>{formatRelative(t.startedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
